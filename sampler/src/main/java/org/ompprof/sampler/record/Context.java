package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.util.OptionalLong;
import org.ompprof.sampler.wire.Wire;

/**
 * Registers and the stack snapshot of a sample or of a callback with a calling context, after the
 * frames the agent walked to get there.
 *
 * @param stack the {@code stack.byteSize()} bytes of memory starting at address {@code rsp},
 *     read-only and little-endian (read words with {@code JAVA_LONG_UNALIGNED})
 * @param flags {@code Wire.CTX_*}
 * @param walk the frames the agent walked before it got to {@code rip}/{@code rsp}/{@code rbp} (see {@link Walk})
 * @param rbx rbx at that frame, where a sample has it ({@code Wire.SAMPLE_RBX})
 * @param upper a second window of the stack above {@code stack}, or {@link StackWindow#NONE} ({@code
 *     Wire.SAMPLE_UPPER})
 */
public record Context(
        long rip, long rsp, long rbp, int flags, MemorySegment stack, Walk walk, OptionalLong rbx, StackWindow upper) {
    public Context {
        stack = stack.isReadOnly() ? stack : stack.asReadOnly();
        java.util.Objects.requireNonNull(walk, "walk");
        java.util.Objects.requireNonNull(rbx, "rbx");
        java.util.Objects.requireNonNull(upper, "upper");
    }

    /** A context without rbx or a second window (a callback's, or a sample's without them). */
    public Context(long rip, long rsp, long rbp, int flags, MemorySegment stack, Walk walk) {
        this(rip, rsp, rbp, flags, stack, walk, OptionalLong.empty(), StackWindow.NONE);
    }

    /** A context without walked frames: the captured registers and the snapshot from there. */
    public Context(long rip, long rsp, long rbp, int flags, MemorySegment stack) {
        this(rip, rsp, rbp, flags, stack, Walk.NONE);
    }

    /**
     * Whether the record refers to an earlier one's segment instead of carrying a stack: the thread sent one of the
     * same shape before ({@code Wire.CTX_SAME_SHAPE}).
     */
    public boolean sameShape() {
        return (flags & Wire.CTX_SAME_SHAPE) != 0;
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
