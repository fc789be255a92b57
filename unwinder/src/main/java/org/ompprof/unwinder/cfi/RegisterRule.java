package org.ompprof.unwinder.cfi;

/** One register's rule in a row; {@code offset}, {@code register} and {@code expression} are used as the kind says. */
public record RegisterRule(RuleKind kind, long offset, int register, DwarfExpression expression) {
    public static final RegisterRule UNSPECIFIED = new RegisterRule(RuleKind.UNSPECIFIED, 0, -1, null);
    public static final RegisterRule UNDEFINED = new RegisterRule(RuleKind.UNDEFINED, 0, -1, null);
    public static final RegisterRule SAME_VALUE = new RegisterRule(RuleKind.SAME_VALUE, 0, -1, null);

    public static RegisterRule offset(RuleKind kind, long offset) {
        return new RegisterRule(kind, offset, -1, null);
    }

    public static RegisterRule register(int source) {
        return new RegisterRule(RuleKind.REGISTER, 0, source, null);
    }

    public static RegisterRule expression(RuleKind kind, DwarfExpression e) {
        return new RegisterRule(kind, 0, -1, e);
    }

    /** llvm-dwarfdump's spelling ("[CFA-8]", "RBX", "undefined"), which the tests compare against. */
    public String describe() {
        return switch (kind) {
            case UNSPECIFIED -> "unspecified";
            case UNDEFINED -> "undefined";
            case SAME_VALUE -> "same";
            case OFFSET -> "[" + CfaRule.plus("CFA", offset) + "]";
            case VAL_OFFSET -> CfaRule.plus("CFA", offset);
            case REGISTER -> X86Registers.name(register);
            case EXPRESSION -> "[expr]";
            case VAL_EXPRESSION -> "expr";
        };
    }
}
