package org.ompprof.unwinder.cfi;

/**
 * What an expression may look at while a frame is being unwound: the frame's registers (some
 * of which may be unknown, e.g. callee-saved ones the sample did not record) and memory, which
 * is only the recorded stack snapshot.
 */
public interface UnwindContext {
    boolean registerKnown(int register);

    long register(int register);

    /** True iff all {@code size} bytes at {@code address} are available. */
    boolean readable(long address, int size);

    /** Little-endian, zero-extended read of {@code size} (1, 2, 4 or 8) bytes; check {@link #readable} first. */
    long read(long address, int size);
}
