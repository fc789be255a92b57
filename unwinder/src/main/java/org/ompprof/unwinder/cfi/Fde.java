package org.ompprof.unwinder.cfi;

/** A Frame Description Entry: the code range {@code [pcBegin, pcEnd)} (ELF vaddrs) and its program. */
public record Fde(int offset, Cie cie, long pcBegin, long pcEnd, int instructionsStart, int instructionsEnd) {
    public boolean covers(long pc) {
        return pcBegin <= pc && pc < pcEnd;
    }
}
