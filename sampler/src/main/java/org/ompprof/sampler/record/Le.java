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

    /**
     * The 16 bits at {@code i} of {@code a}, read byte by byte: readers of millions of records in arrays run in a cold
     * JVM too, where segment reads are slow until compiled.
     */
    public static int u16(byte[] a, int i) {
        return (a[i] & 0xff) | (a[i + 1] & 0xff) << 8;
    }

    /** As {@link #u16(byte[], int)}, the 32 bits at {@code i}; use {@link Integer#toUnsignedLong} where unsigned. */
    public static int u32(byte[] a, int i) {
        return (a[i] & 0xff) | (a[i + 1] & 0xff) << 8 | (a[i + 2] & 0xff) << 16 | (a[i + 3] & 0xff) << 24;
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
