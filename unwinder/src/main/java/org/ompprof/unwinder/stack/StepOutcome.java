package org.ompprof.unwinder.stack;

/** What one unwinding step achieved. */
enum StepOutcome {
    /** The caller's registers are in place. */
    CONTINUE,
    /** The return address is undefined: this was the outermost frame. */
    OUTERMOST,
    /** A value the step needs lies outside the snapshot. */
    TRUNCATED,
    /** The rules cannot be applied (unknown register, malformed expression, no progress). */
    ERROR
}
