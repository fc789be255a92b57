package org.ompprof.unwinder.cfi;

/**
 * How the canonical frame address is computed: register + offset, or an expression (which
 * DWARF evaluates with an empty initial stack). {@code expression} is null for the former.
 */
public record CfaRule(int register, long offset, DwarfExpression expression) {
    public static final CfaRule NONE = new CfaRule(-1, 0, null);

    public boolean isExpression() {
        return expression != null;
    }

    public String describe() {
        if (isExpression()) return "expr";
        return register < 0 ? "none" : plus(X86Registers.name(register), offset);
    }

    static String plus(String base, long offset) {
        if (offset == 0) return base;
        return offset > 0 ? base + "+" + offset : base + "-" + -offset;
    }
}
