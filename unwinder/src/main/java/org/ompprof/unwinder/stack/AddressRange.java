package org.ompprof.unwinder.stack;

/** Runtime addresses {@code [start, end)}. */
public record AddressRange(long start, long end) {
    public boolean contains(long address) {
        return start <= address && address < end;
    }
}
