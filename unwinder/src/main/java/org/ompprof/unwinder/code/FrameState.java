package org.ompprof.unwinder.code;

import java.util.Arrays;
import org.ompprof.unwinder.cfi.CfaRule;
import org.ompprof.unwinder.cfi.CfiOrigin;
import org.ompprof.unwinder.cfi.RegisterRule;
import org.ompprof.unwinder.cfi.RuleKind;
import org.ompprof.unwinder.cfi.UnwindRow;
import org.ompprof.unwinder.cfi.X86Registers;

/**
 * How a function's frame stands before one of its instructions: the CFA less the stack pointer; the frame register,
 * a copy of the stack pointer that stays when the stack is aligned or grown by a variable amount (rbp after {@code
 * mov rbp, rsp}; OpenBLAS's kernels keep rbx) and the CFA less it; and where each callee-saved register was saved (an
 * offset from the CFA; 0: not saved, the caller's value is still in the register; {@link #LOST}: overwritten unsaved,
 * which the ABI forbids but paths that disagree leave). Registers are DWARF-numbered ({@link X86Registers}).
 * Immutable.
 */
final class FrameState {
    static final int UNKNOWN = Integer.MIN_VALUE;
    static final int NO_REGISTER = -1;
    private static final int LOST = 1;
    /** At the entry: the return address just pushed, the CFA 8 above it. */
    static final FrameState ENTRY = new FrameState(8, NO_REGISTER, UNKNOWN, new int[X86Registers.COUNT]);

    private static final int RETURN_ADDRESS_OFFSET = -8;
    private static final int[] CALLEE_SAVED = {
        X86Registers.RBX, X86Registers.RBP, X86Registers.R12, X86Registers.R13, X86Registers.R14, X86Registers.R15
    };

    private final int cfaLessRsp;
    private final int frameRegister;
    private final int cfaLessFrame;
    private final int[] savedAt;

    private FrameState(int cfaLessRsp, int frameRegister, int cfaLessFrame, int[] savedAt) {
        this.cfaLessRsp = cfaLessRsp;
        this.frameRegister = cfaLessFrame == UNKNOWN ? NO_REGISTER : frameRegister;
        this.cfaLessFrame = this.frameRegister == NO_REGISTER ? UNKNOWN : cfaLessFrame;
        this.savedAt = savedAt;
    }

    int cfaLessRsp() {
        return cfaLessRsp;
    }

    int frameRegister() {
        return frameRegister;
    }

    /** The CFA less {@code register}, if it is the frame register; else {@link #UNKNOWN}. */
    int cfaLess(int register) {
        return register == X86Registers.RSP ? cfaLessRsp : register == frameRegister ? cfaLessFrame : UNKNOWN;
    }

    boolean saved(int register) {
        return savedAt[register] != 0 && savedAt[register] != LOST;
    }

    /** Whether the CFA can be computed here at all. */
    boolean knowsCfa() {
        return cfaLessRsp != UNKNOWN || frameRegister != NO_REGISTER;
    }

    FrameState withRsp(int cfaLessRsp) {
        return new FrameState(cfaLessRsp, frameRegister, cfaLessFrame, savedAt);
    }

    private FrameState withSaved(int[] saved) {
        return new FrameState(cfaLessRsp, frameRegister, cfaLessFrame, saved);
    }

    /** The stack pointer moved by {@code bytes} (negative: the stack grew). */
    FrameState rspMoved(long bytes) {
        if (cfaLessRsp == UNKNOWN) return this;
        return withRsp(checked(cfaLessRsp - bytes));
    }

    /** The stack pointer set to the frame register plus {@code bytes}. */
    FrameState rspFromFrame(long bytes) {
        return withRsp(frameRegister == NO_REGISTER ? UNKNOWN : checked(cfaLessFrame - bytes));
    }

    /** {@code register} made the frame register: {@code register = rsp + bytes}. */
    FrameState frameFromRsp(int register, long bytes) {
        FrameState s = clobbered(register);
        int less = cfaLessRsp == UNKNOWN ? UNKNOWN : checked(cfaLessRsp - bytes);
        return new FrameState(s.cfaLessRsp, register, less, s.savedAt);
    }

    /** A CFA less a register that lies where a CFA can: at least the return address's 8 bytes above it. */
    private static int checked(long less) {
        return less < 8 || less > Integer.MAX_VALUE ? UNKNOWN : (int) less;
    }

    /** A push of {@code register} (DWARF number, -1 for anything else) with the stack pointer where it was. */
    FrameState pushed(int register) {
        FrameState s = rspMoved(-8);
        return s.cfaLessRsp == UNKNOWN ? s : s.stored(register, -s.cfaLessRsp);
    }

    /** A pop into {@code register}. */
    FrameState popped(int register) {
        int slot = cfaLessRsp == UNKNOWN ? 0 : -cfaLessRsp;
        return rspMoved(8).loaded(register, slot);
    }

    /** {@code register} stored at CFA + {@code offset}: where the caller's value is kept, if it is still that. */
    FrameState stored(int register, int offset) {
        if (register < 0 || !calleeSaved(register) || savedAt[register] != 0) return this;
        int[] saved = savedAt.clone();
        saved[register] = offset;
        return withSaved(saved);
    }

    /** {@code register} loaded from CFA + {@code offset} (0: from elsewhere): restored if that is its slot. */
    FrameState loaded(int register, int offset) {
        if (register < 0) return this;
        if (offset == 0 || !saved(register) || savedAt[register] != offset) return clobbered(register);
        int[] saved = savedAt.clone();
        saved[register] = 0;
        FrameState s = withSaved(saved);
        return register == frameRegister ? new FrameState(s.cfaLessRsp, NO_REGISTER, UNKNOWN, saved) : s;
    }

    /** {@code register} overwritten with a value unrelated to the frame. */
    FrameState clobbered(int register) {
        if (register < 0) return this;
        if (register == X86Registers.RSP) return withRsp(UNKNOWN);
        FrameState s = register == frameRegister ? new FrameState(cfaLessRsp, NO_REGISTER, UNKNOWN, savedAt) : this;
        if (!calleeSaved(register) || savedAt[register] != 0) return s;
        int[] saved = savedAt.clone();
        saved[register] = LOST;
        return s.withSaved(saved);
    }

    /** After a call: the callee may have changed any register the ABI does not make it keep. */
    FrameState called() {
        return frameRegister == NO_REGISTER || calleeSaved(frameRegister)
                ? this
                : new FrameState(cfaLessRsp, NO_REGISTER, UNKNOWN, savedAt);
    }

    private static boolean calleeSaved(int register) {
        for (int r : CALLEE_SAVED) if (r == register) return true;
        return false;
    }

    /**
     * What holds whichever of two paths led here: each offset both agree on; a register one path saved and the other
     * did not (or elsewhere) is lost. The CFA stays known while either register still agrees.
     */
    FrameState meet(FrameState o) {
        if (equals(o)) return this;
        int[] saved = savedAt.clone();
        for (int r = 0; r < saved.length; r++) if (saved[r] != o.savedAt[r]) saved[r] = LOST;
        boolean sameFrame = frameRegister == o.frameRegister && cfaLessFrame == o.cfaLessFrame;
        return new FrameState(
                cfaLessRsp == o.cfaLessRsp ? cfaLessRsp : UNKNOWN,
                sameFrame ? frameRegister : NO_REGISTER,
                sameFrame ? cfaLessFrame : UNKNOWN,
                saved);
    }

    /** The row for {@code [start, end)}: the CFA from rsp where it is known (else from the frame register). */
    UnwindRow row(long start, long end) {
        CfaRule cfa = cfaLessRsp != UNKNOWN
                ? new CfaRule(X86Registers.RSP, cfaLessRsp, null)
                : new CfaRule(frameRegister, cfaLessFrame, null);
        RegisterRule[] rules = new RegisterRule[X86Registers.COUNT];
        Arrays.fill(rules, RegisterRule.UNSPECIFIED);
        for (int r : CALLEE_SAVED) {
            if (savedAt[r] == LOST) rules[r] = RegisterRule.UNDEFINED;
            else if (savedAt[r] != 0) rules[r] = RegisterRule.offset(RuleKind.OFFSET, savedAt[r]);
        }
        rules[X86Registers.RIP] = RegisterRule.offset(RuleKind.OFFSET, RETURN_ADDRESS_OFFSET);
        return new UnwindRow(start, end, cfa, rules, X86Registers.RIP, false, CfiOrigin.CODE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FrameState s
                && cfaLessRsp == s.cfaLessRsp
                && frameRegister == s.frameRegister
                && cfaLessFrame == s.cfaLessFrame
                && Arrays.equals(savedAt, s.savedAt);
    }

    @Override
    public int hashCode() {
        return ((cfaLessRsp * 31 + frameRegister) * 31 + cfaLessFrame) * 31 + Arrays.hashCode(savedAt);
    }

    @Override
    public String toString() {
        return row(0, 1).describe();
    }
}
