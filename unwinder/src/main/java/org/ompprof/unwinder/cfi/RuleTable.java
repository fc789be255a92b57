package org.ompprof.unwinder.cfi;

/** The mutable row a CFA program edits while it runs; copied for remember_state. */
final class RuleTable {
    CfaRule cfa = CfaRule.NONE;
    final RegisterRule[] rules = new RegisterRule[X86Registers.COUNT];

    RuleTable() {
        java.util.Arrays.fill(rules, RegisterRule.UNSPECIFIED);
    }

    RuleTable copy() {
        RuleTable t = new RuleTable();
        t.cfa = cfa;
        System.arraycopy(rules, 0, t.rules, 0, rules.length);
        return t;
    }

    void set(long register, RegisterRule rule) {
        // Rules for untracked columns (vector registers) are parsed and dropped.
        if (register >= 0 && register < X86Registers.COUNT) rules[(int) register] = rule;
    }

    RegisterRule get(long register) {
        return register >= 0 && register < X86Registers.COUNT ? rules[(int) register] : RegisterRule.UNSPECIFIED;
    }
}
