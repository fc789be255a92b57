package org.ompprof.unwinder.symbols;

/** One function of an llvm-symbolizer answer, as printed: empty strings and zeros mean unknown. */
public record LlvmFrame(String function, String file, int line, int column) {
    public boolean hasFunction() {
        return !function.isEmpty() && !function.equals("??");
    }
}
