package org.ompprof.sampler.record;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ompprof.sampler.wire.Wire;

/**
 * The entries of a packed task batch ({@code OMPPROF_REC_TASK_BATCH_PACKED}), about 3 bytes a
 * task where the plain batch takes 24: task-recursive programs create tasks faster than a busy
 * drainer moves 24 bytes apiece. An entry is
 * {@code varint(((task - previous task) << 2) | shapeCode)},
 * {@code varint(zigzag(parent - previous parent))}, and the shape's 8 bytes when shapeCode is 2.
 * The previous task starts at the header's base id, the previous parent at 0; shapeCode 0
 * repeats the last shape, 1 takes the one before it (the two swap), 2 brings a new one.
 */
public final class TaskBatchPacking {
    private static final int NEW_SHAPE = 2;

    private TaskBatchPacking() {}

    /** A broken entry; thrown without a stack trace, random input makes many. */
    private static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }

    /**
     * Bytes that {@code count} entries take from {@code off}, never reading at or past
     * {@code limit}; -1 if they break the encoding. Builds no entries: every record the drainer
     * reads is checked.
     */
    static long walk(MemorySegment rec, long off, long limit, int count) {
        try {
            return new Reader(rec, off, limit, 0).skip(count) - off;
        } catch (Malformed e) {
            return -1;
        }
    }

    /** The entries, already checked by {@link #walk}. */
    static List<TaskBatch.Entry> decode(MemorySegment rec, long off, long limit, int count, long baseTaskId) {
        Reader r = new Reader(rec, off, limit, baseTaskId);
        List<TaskBatch.Entry> out = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) out.add(r.next());
        } catch (Malformed e) {
            throw new MalformedRecordException("packed task batch: bad entry " + out.size());
        }
        return out;
    }

    /** The base task id the agent would write for {@code entries}: one below the first. */
    static long baseTaskId(List<TaskBatch.Entry> entries) {
        return entries.getFirst().taskId() - 1;
    }

    /**
     * The entries packed as the agent packs them.
     *
     * @throws IllegalArgumentException if an id does not follow the one before by 1 to 2^62-1
     */
    static byte[] encode(List<TaskBatch.Entry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long task = baseTaskId(entries);
        long parent = 0;
        long last = 0;
        long before = 0;
        for (TaskBatch.Entry e : entries) {
            long step = e.taskId() - task;
            if (step == 0 || Long.compareUnsigned(step, 1L << 62) >= 0) {
                throw new IllegalArgumentException("task " + Long.toUnsignedString(e.taskId()) + " does not follow "
                        + Long.toUnsignedString(task) + " in a packed batch");
            }
            int code = e.shape() == last ? 0 : e.shape() == before ? 1 : NEW_SHAPE;
            if (code != 0) {
                before = last;
                last = e.shape();
            }
            putVarint(out, (step << 2) | code);
            long d = e.parentTaskId() - parent;
            putVarint(out, (d << 1) ^ (d >> 63));
            if (code == NEW_SHAPE) {
                for (int k = 0; k < 8; k++) out.write((int) (e.shape() >>> (8 * k)));
            }
            task = e.taskId();
            parent = e.parentTaskId();
        }
        return out.toByteArray();
    }

    private static void putVarint(ByteArrayOutputStream out, long v) {
        while (Long.compareUnsigned(v, 0x80) >= 0) {
            out.write((int) (v | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Reads entries in order, keeping the running task, parent and the two recent shapes. */
    private static final class Reader {
        private final MemorySegment rec;
        private final long limit;
        private long at;
        private long task;
        private long parent;
        private long last;
        private long before;

        Reader(MemorySegment rec, long off, long limit, long baseTaskId) {
            this.rec = rec;
            this.at = off;
            this.limit = Math.min(limit, rec.byteSize());
            this.task = baseTaskId;
        }

        long skip(int count) throws Malformed {
            for (int i = 0; i < count; i++) step();
            return at;
        }

        TaskBatch.Entry next() throws Malformed {
            long shape = step();
            return new TaskBatch.Entry(task, parent, shape);
        }

        /** Advances over one entry; returns its shape. */
        private long step() throws Malformed {
            long a = varint();
            long z = varint();
            if (a >>> 2 == 0) throw new Malformed(); // task ids grow within a batch
            task += a >>> 2;
            parent += (z >>> 1) ^ -(z & 1);
            switch ((int) (a & 3)) {
                case 0 -> { }
                case 1 -> swap(before);
                case NEW_SHAPE -> swap(u64());
                default -> throw new Malformed();
            }
            return last;
        }

        private void swap(long shape) {
            before = last;
            last = shape;
        }

        private long varint() throws Malformed {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                if (shift == 63 && b > 1) throw new Malformed(); // more than 64 bits
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) return v;
            }
            throw new Malformed();
        }

        private long u64() throws Malformed {
            if (limit - at < 8) throw new Malformed();
            long v = Le.u64(rec, at);
            at += 8;
            return v;
        }

        private int u8() throws Malformed {
            if (at >= limit) throw new Malformed();
            return rec.get(ValueLayout.JAVA_BYTE, at++) & 0xff;
        }
    }

    /** The largest {@code bytes} field {@code count} entries can have. */
    static long maxBytes(long count) {
        return count * Wire.MAX_PACKED_TASK_ENTRY;
    }
}
