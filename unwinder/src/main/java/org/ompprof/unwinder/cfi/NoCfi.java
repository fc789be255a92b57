package org.ompprof.unwinder.cfi;

/** No FDE in .eh_frame or .debug_frame covers the pcs {@code [start, end)}. */
public record NoCfi(long start, long end) implements RowResult {}
