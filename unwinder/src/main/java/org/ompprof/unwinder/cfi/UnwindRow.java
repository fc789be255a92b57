package org.ompprof.unwinder.cfi;

import java.util.Arrays;

/**
 * One row of the CFI table: for the relative pcs {@code [start, end)}, how to compute the CFA
 * and each tracked register of the caller. Immutable (arrays are copied in and never handed
 * out), so rows can be cached and shared between unwinding threads.
 */
public final class UnwindRow implements RowResult {
    private final long start;
    private final long end;
    private final CfaRule cfa;
    private final RegisterRule[] rules;
    private final int[] specified;
    private final int returnAddressRegister;
    private final boolean signalFrame;
    private final CfiOrigin origin;

    public UnwindRow(
            long start,
            long end,
            CfaRule cfa,
            RegisterRule[] rules,
            int returnAddressRegister,
            boolean signalFrame,
            CfiOrigin origin) {
        if (rules.length != X86Registers.COUNT)
            throw new IllegalArgumentException("need " + X86Registers.COUNT + " rules");
        this.start = start;
        this.end = end;
        this.cfa = cfa;
        this.rules = rules.clone();
        this.specified = specifiedRegisters(this.rules);
        this.returnAddressRegister = returnAddressRegister;
        this.signalFrame = signalFrame;
        this.origin = origin;
    }

    private static int[] specifiedRegisters(RegisterRule[] rules) {
        // The unwinder only needs to visit registers whose value changes; most rows name 1-7.
        return java.util.stream.IntStream.range(0, rules.length)
                .filter(r -> rules[r].kind() != RuleKind.UNSPECIFIED && rules[r].kind() != RuleKind.SAME_VALUE)
                .toArray();
    }

    @Override
    public long start() {
        return start;
    }

    @Override
    public long end() {
        return end;
    }

    public CfaRule cfa() {
        return cfa;
    }

    public RegisterRule rule(int register) {
        return rules[register];
    }

    /** How many registers have a rule other than unspecified/same value. */
    public int specifiedCount() {
        return specified.length;
    }

    /** The {@code i}-th such register, in increasing register number. */
    public int specifiedRegister(int i) {
        return specified[i];
    }

    public int returnAddressRegister() {
        return returnAddressRegister;
    }

    /** From a CIE with 'S': the caller was interrupted, so its pc is exact, not a return address. */
    public boolean signalFrame() {
        return signalFrame;
    }

    public CfiOrigin origin() {
        return origin;
    }

    /** The row in llvm-dwarfdump's notation, e.g. {@code CFA=RSP+16: RBX=[CFA-16], RIP=[CFA-8]}. */
    public String describe() {
        StringBuilder sb = new StringBuilder("CFA=").append(cfa.describe());
        String sep = ": ";
        for (int r = 0; r < rules.length; r++) {
            if (rules[r].kind() == RuleKind.UNSPECIFIED) continue;
            sb.append(sep).append(X86Registers.name(r)).append('=').append(rules[r].describe());
            sep = ", ";
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "UnwindRow[0x" + Long.toHexString(start) + "-0x" + Long.toHexString(end) + " " + describe()
                + (signalFrame ? " signal" : "") + " " + origin + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UnwindRow r
                && start == r.start
                && end == r.end
                && cfa.equals(r.cfa)
                && Arrays.equals(rules, r.rules)
                && returnAddressRegister == r.returnAddressRegister
                && signalFrame == r.signalFrame
                && origin == r.origin;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(start) * 31 + Arrays.hashCode(rules);
    }
}
