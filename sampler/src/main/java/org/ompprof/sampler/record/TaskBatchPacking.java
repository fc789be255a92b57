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
 *
 * <p>A packed region batch ({@code OMPPROF_REC_REGION_BATCH_PACKED}) packs its regions the same
 * way (the region's id for the task's, its encountering task for the parent), each followed by
 * {@code varint(zigzag(end - previous end))}, the previous end starting at the header's base end.
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
    static long walk(MemorySegment rec, long off, long limit, int count, boolean timed) {
        try {
            return new Reader(rec, off, limit, count, 0, timed, 0, false).skip(count);
        } catch (Malformed e) {
            return -1;
        }
    }

    /** The entries, already checked by {@link #walk}. */
    static List<TaskBatch.Entry> decode(MemorySegment rec, long off, long limit, int count, long baseTaskId) {
        Reader r = new Reader(rec, off, limit, count, baseTaskId, false, 0, true);
        long[] ids = new long[count], parents = new long[count], shapes = new long[count];
        int i = 0;
        try {
            for (; i < count; i++) {
                shapes[i] = r.step();
                ids[i] = r.id;
                parents[i] = r.parent;
            }
        } catch (Malformed e) {
            throw new MalformedRecordException("packed task batch: bad entry " + i);
        }
        return new TaskEntries(ids, parents, shapes);
    }

    /** A region batch's entries, already checked by {@link #walk}. */
    static List<RegionBatch.Entry> decodeRegions(
            MemorySegment rec, long off, long limit, int count, long baseParallelId, long baseEndNs) {
        Reader r = new Reader(rec, off, limit, count, baseParallelId, true, baseEndNs, true);
        List<RegionBatch.Entry> out = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                long shape = r.step();
                out.add(new RegionBatch.Entry(r.id, r.parent, shape, r.time));
            }
        } catch (Malformed e) {
            throw new MalformedRecordException("packed region batch: bad entry " + out.size());
        }
        return out;
    }

    /**
     * A region batch from its packed entries as they lie in {@code packed} (all of it); null unless
     * they are exactly {@code count} well-formed entries (1 to {@link Wire#MAX_TASK_BATCH}).
     */
    public static RegionBatch regionBatch(
            int threadSeq, long timeNs, MemorySegment packed, int count, long baseParallelId, long baseEndNs) {
        long n = packed.byteSize();
        if (count <= 0 || count > Wire.MAX_TASK_BATCH || walk(packed, 0, n, count, true) != n) return null;
        return new RegionBatch(threadSeq, timeNs, decodeRegions(packed, 0, n, count, baseParallelId, baseEndNs));
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
        return encode(entries.size(), i -> {
            TaskBatch.Entry e = entries.get(i);
            return new long[] {e.taskId(), e.parentTaskId(), e.shape()};
        });
    }

    /** A region batch's entries packed as the agent packs them; the base end is the first's. */
    static byte[] encodeRegions(List<RegionBatch.Entry> entries) {
        return encode(entries.size(), i -> {
            RegionBatch.Entry e = entries.get(i);
            return new long[] {e.parallelId(), e.parentTaskId(), e.shape(), e.endNs()};
        });
    }

    /** The base parallel id the agent would write for {@code entries}: one below the first. */
    static long baseParallelId(List<RegionBatch.Entry> entries) {
        return entries.getFirst().parallelId() - 1;
    }

    /** @param entry the i-th entry's id, parent, shape and, for a region, its end */
    private static byte[] encode(int count, java.util.function.IntFunction<long[]> entry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long[] first = entry.apply(0);
        long id = first[0] - 1;
        long parent = 0;
        long time = first.length > 3 ? first[3] : 0;
        RecentShapes recent = new RecentShapes();
        for (int i = 0; i < count; i++) {
            long[] e = entry.apply(i);
            long step = e[0] - id;
            if (step == 0 || Long.compareUnsigned(step, STEP_LIMIT) >= 0) {
                throw new IllegalArgumentException("id " + Long.toUnsignedString(e[0]) + " does not follow "
                        + Long.toUnsignedString(id) + " in a packed batch");
            }
            int code = recent.use(e[2]);
            putVarint(out, (step << 3) | code);
            putVarint(out, zigzag(e[1] - parent));
            if (code == NEW_SHAPE) {
                for (int k = 0; k < 8; k++) out.write((int) (e[2] >>> (8 * k)));
            }
            if (e.length > 3) {
                putVarint(out, zigzag(e[3] - time));
                time = e[3];
            }
            id = e[0];
            parent = e[1];
        }
        return out.toByteArray();
    }

    private static long zigzag(long d) {
        return (d << 1) ^ (d >> 63);
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
            for (int i = from; i > 0; i--) shapes[i] = shapes[i - 1]; // a word or two: less than arraycopy's call
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

    /**
     * Reads entries in order, keeping the running id, parent, end (regions only) and the recent shapes. The bytes are
     * copied out of the segment first, at most as many as {@code count} entries can take: read one at a time from a
     * segment, through its checks, they cost the profile build more than the decoding itself.
     */
    private static final class Reader {
        private final byte[] bytes;
        private final boolean timed;
        private int at;
        private final RecentShapes recent; // null: only walked (the bytes checked, the shapes not needed)
        long id;
        long parent;
        long time;

        Reader(
                MemorySegment rec,
                long off,
                long limit,
                int count,
                long baseId,
                boolean timed,
                long baseTime,
                boolean shapes) {
            this.recent = shapes ? new RecentShapes() : null;
            long end = Math.min(Math.min(limit, rec.byteSize()), off + maxBytes(Math.max(count, 0), timed));
            this.bytes = new byte[(int) Math.max(0, end - off)];
            if (bytes.length > 0) MemorySegment.copy(rec, ValueLayout.JAVA_BYTE, off, bytes, 0, bytes.length);
            this.id = baseId;
            this.timed = timed;
            this.time = baseTime;
        }

        /** Advances over {@code count} entries; returns the bytes they took. */
        long skip(int count) throws Malformed {
            for (int i = 0; i < count; i++) step();
            return at;
        }

        /** Advances over one entry; returns its shape (0 when walking, unless it is new). */
        long step() throws Malformed {
            long a = varint();
            long z = varint();
            if (a >>> 3 == 0) throw new Malformed(); // ids grow within a batch
            id += a >>> 3;
            parent += unzigzag(z);
            int code = (int) (a & 7);
            long shape = 0;
            if (code == NEW_SHAPE) {
                shape = u64();
                if (recent != null) recent.add(shape);
            } else if (recent != null) {
                shape = recent.named(code);
            }
            if (timed) time += unzigzag(varint());
            return shape;
        }

        private static long unzigzag(long z) {
            return (z >>> 1) ^ -(z & 1);
        }

        /** A one-byte varint (most of a batch's) read here, small enough for the JIT's first tier to inline. */
        private long varint() throws Malformed {
            if (at < bytes.length && bytes[at] >= 0) return bytes[at++];
            return longVarint();
        }

        private long longVarint() throws Malformed {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                if (shift == 63 && b > 1) throw new Malformed(); // more than 64 bits
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) return v;
            }
            throw new Malformed();
        }

        /** Little-endian. */
        private long u64() throws Malformed {
            if (bytes.length - at < 8) throw new Malformed();
            long v = 0;
            for (int k = 7; k >= 0; k--) v = v << 8 | (bytes[at + k] & 0xffL);
            at += 8;
            return v;
        }

        private int u8() throws Malformed {
            if (at >= bytes.length) throw new Malformed();
            return bytes[at++] & 0xff;
        }
    }

    /** The largest {@code bytes} field {@code count} entries can have. */
    static long maxBytes(long count, boolean timed) {
        return count * (timed ? Wire.MAX_PACKED_REGION_ENTRY : Wire.MAX_PACKED_TASK_ENTRY);
    }
}
