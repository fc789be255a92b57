package org.ompprof.unwinder.stack;

/**
 * One frame of an unwound stack. {@code pc} is as found; for symbolization and line lookup use
 * {@link #lookupPc()}, which steps back into the call instruction for return addresses (the
 * return address of a noreturn call may already belong to the next function).
 * {@code module} is null only for the last frame of an {@link Termination#UNKNOWN_PC} result.
 *
 * <p>{@code sp} is the stack pointer while this frame runs: the sampled rsp for the innermost
 * frame, and for every other frame the CFA of the frame it called (the rsp just before the
 * call pushed the return address). So the CFA of frame i is the {@code sp} of frame i + 1;
 * it is what OMPT frame addresses are compared with. 0 when unknown.
 */
public record Frame(long pc, FrameKind kind, Module module, long sp) {
    public Frame(long pc, FrameKind kind, Module module) {
        this(pc, kind, module, 0);
    }

    public boolean isReturnAddress() {
        return kind.isReturnAddress();
    }

    public long lookupPc() {
        return kind.isReturnAddress() ? pc - 1 : pc;
    }

    /** {@link #lookupPc()} as an ELF virtual address of the module. */
    public long relativeLookupPc() {
        if (module == null) throw new IllegalStateException("pc 0x" + Long.toHexString(pc) + " is in no module");
        return lookupPc() - module.bias();
    }
}
