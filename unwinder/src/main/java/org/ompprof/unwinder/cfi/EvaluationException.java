package org.ompprof.unwinder.cfi;

/**
 * A DWARF expression that could not be evaluated. The kind matters to the unwinder: memory
 * outside the snapshot means the stack was cut, a malformed expression means bad CFI.
 */
public final class EvaluationException extends Exception {
    private static final long serialVersionUID = 1L;

    public enum Kind {
        MALFORMED,
        MEMORY_UNAVAILABLE,
        REGISTER_UNKNOWN,
        LIMIT
    }

    private final Kind kind;

    public EvaluationException(Kind kind, String message) {
        // No stack trace: these are ordinary outcomes on damaged or cut samples and must be cheap.
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
