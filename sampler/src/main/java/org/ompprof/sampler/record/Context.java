package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;

/**
 * Registers and the stack snapshot of a sample or of a callback with a calling context.
 *
 * @param stack the {@code stack.byteSize()} bytes of memory starting at address {@code rsp},
 *     read-only and little-endian (read words with {@code JAVA_LONG_UNALIGNED})
 * @param flags {@code Wire.CTX_*}
 */
public record Context(long rip, long rsp, long rbp, int flags, MemorySegment stack) {
    public Context {
        stack = stack.isReadOnly() ? stack : stack.asReadOnly();
    }

    /** Bytes of stack captured. */
    public int stackLength() {
        return (int) stack.byteSize();
    }

    /** The snapshot's bytes, copied. */
    public byte[] stackBytes() {
        return stack.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }
}
