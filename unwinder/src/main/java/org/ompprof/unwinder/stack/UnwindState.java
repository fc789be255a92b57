package org.ompprof.unwinder.stack;

import static org.ompprof.unwinder.cfi.X86Registers.COUNT;
import static org.ompprof.unwinder.cfi.X86Registers.RBP;
import static org.ompprof.unwinder.cfi.X86Registers.RIP;
import static org.ompprof.unwinder.cfi.X86Registers.RSP;

import org.ompprof.unwinder.cfi.UnwindContext;
import org.ompprof.unwinder.cfi.X86Registers;

/**
 * The registers of the frame being unwound, with which of them are known, over the sample's
 * stack snapshot. A sample records rip, rsp and rbp, and rbx where the agent kept it; other callee-saved
 * registers become known when a frame's CFI restores them from the stack. Reused across samples.
 */
final class UnwindState implements UnwindContext {
    private final long[] values = new long[COUNT];
    private int known;
    private StackSnapshot snapshot;

    void reset(Registers r, StackSnapshot s) {
        snapshot = s;
        known = 0;
        set(RIP, r.rip());
        set(RSP, r.rsp());
        set(RBP, r.rbp());
        if (r.rbx().isPresent()) set(X86Registers.RBX, r.rbx().getAsLong());
    }

    void set(int register, long value) {
        values[register] = value;
        known |= 1 << register;
    }

    /** Everything except the stack, frame and instruction pointers becomes unknown. */
    void forgetAllButFrameRegisters() {
        known &= (1 << RSP) | (1 << RBP) | (1 << RIP);
    }

    long pc() {
        return values[RIP];
    }

    long sp() {
        return values[RSP];
    }

    /** Copies of the register file, so a step can compute from the old values while writing new ones. */
    void copyTo(long[] otherValues) {
        System.arraycopy(values, 0, otherValues, 0, COUNT);
    }

    int knownMask() {
        return known;
    }

    void load(long[] newValues, int newKnown) {
        System.arraycopy(newValues, 0, values, 0, COUNT);
        known = newKnown;
    }

    @Override
    public boolean registerKnown(int register) {
        return register >= 0 && register < COUNT && (known & (1 << register)) != 0;
    }

    @Override
    public long register(int register) {
        return values[register];
    }

    @Override
    public boolean readable(long address, int size) {
        return snapshot.readable(address, size);
    }

    @Override
    public long read(long address, int size) {
        return snapshot.read(address, size);
    }
}
