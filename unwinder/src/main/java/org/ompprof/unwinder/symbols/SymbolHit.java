package org.ompprof.unwinder.symbols;

/** The function symbol containing a pc: its name and its ELF vaddr range {@code [start, end)}. */
public record SymbolHit(String name, long start, long end) {
    public long offsetOf(long pc) {
        return pc - start;
    }
}
