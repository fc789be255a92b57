package org.ompprof.unwinder.cfi;

/** How a register of the caller is recovered (DWARF 5, 6.4.1 register rules). */
public enum RuleKind {
    /** No rule given: treated like SAME_VALUE, except that the stack pointer becomes the CFA. */
    UNSPECIFIED,
    /** Not recoverable; for the return address this marks the outermost frame. */
    UNDEFINED,
    SAME_VALUE,
    /** Saved at CFA + offset. */
    OFFSET,
    /** Is CFA + offset. */
    VAL_OFFSET,
    /** Is the current value of another register. */
    REGISTER,
    /** Saved at the address the expression computes (CFA pushed first). */
    EXPRESSION,
    /** Is the value the expression computes (CFA pushed first). */
    VAL_EXPRESSION
}
