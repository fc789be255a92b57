package org.ompprof.unwinder.stack;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A copy of {@code length} bytes of a thread's stack that started at address {@code base}
 * (the sampled rsp), held in {@code bytes[offset, offset + length)}, and where the agent took one, a
 * second stretch higher up ({@code upper}, null if none: a frame larger than the first stretch, found
 * from the register that held its address). The array is not copied, so a sample's record buffer can be
 * used in place; it must not change while in use.
 */
public record StackSnapshot(long base, byte[] bytes, int offset, int length, StackSnapshot upper) {
    private static final VarHandle U64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    public StackSnapshot {
        Objects.requireNonNull(bytes, "bytes");
        Objects.checkFromIndexSize(offset, length, bytes.length);
    }

    public StackSnapshot(long base, byte[] bytes, int offset, int length) {
        this(base, bytes, offset, length, null);
    }

    public StackSnapshot(long base, byte[] bytes) {
        this(base, bytes, 0, bytes.length);
    }

    /** The first {@code n} bytes only, as if the capture had stopped there. */
    public StackSnapshot truncated(int n) {
        return new StackSnapshot(base, bytes, offset, Math.min(n, length), upper);
    }

    /** True iff {@code [address, address + size)} lies inside the snapshot. */
    public boolean readable(long address, int size) {
        // One subtraction and compare; wrap-around cannot fake a hit because base + length is far below 2^63.
        long rel = address - base;
        return (rel >= 0 && rel <= length - size) || (upper != null && upper.readable(address, size));
    }

    public long u64(long address) {
        long rel = address - base;
        if (upper != null && (rel < 0 || rel > length - 8)) return upper.u64(address);
        return (long) U64.get(bytes, offset + (int) rel);
    }

    /** Little-endian, zero-extended read of 1, 2, 4 or 8 bytes; check {@link #readable} first. */
    public long read(long address, int size) {
        if (size == 8) return u64(address);
        long rel = address - base;
        if (upper != null && (rel < 0 || rel > length - size)) return upper.read(address, size);
        int at = offset + (int) rel;
        long v = 0;
        for (int i = size - 1; i >= 0; i--) v = v << 8 | (bytes[at + i] & 0xffL);
        return v;
    }
}
