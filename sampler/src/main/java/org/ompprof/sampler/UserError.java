package org.ompprof.sampler;

/**
 * Something the user must fix (a bad option, a missing program, a damaged file). The message
 * is one line, shown as {@code ompprof: <message>} without a stack trace.
 */
public class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
