package org.ompprof.sampler.record;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.wire.Wire;

/**
 * The entries of a packed task batch ({@code OMPPROF_REC_TASK_BATCH_PACKED}), 2 to 3 bytes a
 * task where the plain batch takes 24: task-recursive programs create tasks faster than a busy
 * drainer moves 24 bytes apiece. An entry is {@code varint(((task - previous task) << 3) | code)},
 * {@code varint(zigzag(parent - previous parent))}, and the shape's 8 bytes when the code is
 * {@link Wire#PACKED_SHAPES}. The previous task starts at the header's base id, the previous
 * parent at 0. The batch keeps its {@link Wire#PACKED_SHAPES} most recent shapes (all 0 at the
 * start, the latest first): a smaller code names one of them, which moves to the front; the
 * largest brings a new one to the front and drops the last. A recursion cycles through a few
 * shapes (its creation sites, each reached directly or from inside a taskwait).
 */
public final class TaskBatchPacking {
    private static final int NEW_SHAPE = Wire.PACKED_SHAPES;
    private static final long STEP_LIMIT = 1L << 61;

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
     * @throws IllegalArgumentException if an id does not follow the one before by 1 to 2^61-1
     */
    static byte[] encode(List<TaskBatch.Entry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long task = baseTaskId(entries);
        long parent = 0;
        RecentShapes recent = new RecentShapes();
        for (TaskBatch.Entry e : entries) {
            long step = e.taskId() - task;
            if (step == 0 || Long.compareUnsigned(step, STEP_LIMIT) >= 0) {
                throw new IllegalArgumentException("task " + Long.toUnsignedString(e.taskId()) + " does not follow "
                        + Long.toUnsignedString(task) + " in a packed batch");
            }
            int code = recent.use(e.shape());
            putVarint(out, (step << 3) | code);
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

    /** The batch's most recent shapes, the latest first; encoder and decoder keep them alike. */
    private static final class RecentShapes {
        private final long[] shapes = new long[Wire.PACKED_SHAPES];

        /** The code naming {@code shape} ({@link #NEW_SHAPE} if not recent); it moves to the front. */
        int use(long shape) {
            int i = 0;
            while (i < shapes.length && shapes[i] != shape) i++;
            int code = i;
            toFront(Math.min(i, shapes.length - 1), shape);
            return code;
        }

        /** The shape a code below {@link #NEW_SHAPE} names; it moves to the front. */
        long named(int code) {
            long shape = shapes[code];
            toFront(code, shape);
            return shape;
        }

        /** A new shape: the oldest goes. */
        void add(long shape) {
            toFront(shapes.length - 1, shape);
        }

        private void toFront(int from, long shape) {
            System.arraycopy(shapes, 0, shapes, 1, from);
            shapes[0] = shape;
        }
    }

    private static void putVarint(ByteArrayOutputStream out, long v) {
        while (Long.compareUnsigned(v, 0x80) >= 0) {
            out.write((int) (v | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Reads entries in order, keeping the running task, parent and the recent shapes. */
    private static final class Reader {
        private final MemorySegment rec;
        private final long limit;
        private long at;
        private final RecentShapes recent = new RecentShapes();
        private long task;
        private long parent;

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
            if (a >>> 3 == 0) throw new Malformed(); // task ids grow within a batch
            task += a >>> 3;
            parent += (z >>> 1) ^ -(z & 1);
            int code = (int) (a & 7);
            if (code != NEW_SHAPE) return recent.named(code);
            long shape = u64();
            recent.add(shape);
            return shape;
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
