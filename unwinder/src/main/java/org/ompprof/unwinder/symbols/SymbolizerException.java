package org.ompprof.unwinder.symbols;

/** llvm-symbolizer is missing, unusable, hung or gave answers that make no sense. */
public final class SymbolizerException extends Exception {
    private static final long serialVersionUID = 1L;

    public SymbolizerException(String message) {
        super(message);
    }

    public SymbolizerException(String message, Throwable cause) {
        super(message, cause);
    }
}
