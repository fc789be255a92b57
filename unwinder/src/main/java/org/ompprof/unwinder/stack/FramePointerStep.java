package org.ompprof.unwinder.stack;

import static org.ompprof.unwinder.cfi.X86Registers.RBP;
import static org.ompprof.unwinder.cfi.X86Registers.RIP;
import static org.ompprof.unwinder.cfi.X86Registers.RSP;

/**
 * The fallback for code without CFI: assume the standard prologue ({@code push rbp; mov rsp,
 * rbp}), so the caller's rbp is at [rbp] and the return address at [rbp+8]. It is a guess, so
 * it is only taken while rbp points into the snapshot at or above rsp; since the next rsp is
 * rbp+16, a chain that keeps going must keep increasing, and so ends.
 */
final class FramePointerStep {
    private String detail;

    String detail() {
        return detail;
    }

    boolean apply(UnwindState state) {
        if (!state.registerKnown(RBP)) return fail("no CFI, and rbp is not known");
        long rbp = state.register(RBP);
        if (Long.compareUnsigned(rbp, state.sp()) < 0 || (rbp & 7) != 0) {
            return fail("no CFI, and rbp 0x" + Long.toHexString(rbp) + " is not a frame above rsp 0x"
                    + Long.toHexString(state.sp()));
        }
        if (!state.readable(rbp, 16)) {
            return fail("no CFI, and the frame at rbp 0x" + Long.toHexString(rbp) + " lies outside the snapshot");
        }
        long callerRbp = state.read(rbp, 8);
        long returnAddress = state.read(rbp + 8, 8);
        // Nothing says which other registers this code saved or clobbered.
        state.forgetAllButFrameRegisters();
        state.set(RSP, rbp + 16);
        state.set(RBP, callerRbp);
        state.set(RIP, returnAddress);
        return true;
    }

    private boolean fail(String why) {
        detail = why;
        return false;
    }
}
