package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Little-endian, unaligned field access for wire bytes: records in a ring are 8-aligned, but
 * the same bytes in a heap array are not. Reads return raw bits; callers widen unsigned values.
 */
public final class Le {
    public static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Le() {}

    public static long u64(MemorySegment s, long off) {
        return s.get(LONG, off);
    }

    /** The 32 bits at {@code off}; use {@link Integer#toUnsignedLong} where the value is unsigned. */
    public static int u32(MemorySegment s, long off) {
        return s.get(INT, off);
    }

    public static int i32(MemorySegment s, long off) {
        return s.get(INT, off);
    }

    public static int u16(MemorySegment s, long off) {
        return Short.toUnsignedInt(s.get(SHORT, off));
    }

    public static void put64(MemorySegment s, long off, long v) {
        s.set(LONG, off, v);
    }

    public static void put32(MemorySegment s, long off, int v) {
        s.set(INT, off, v);
    }

    public static void put16(MemorySegment s, long off, int v) {
        s.set(SHORT, off, (short) v);
    }
}
