package org.ompprof.unwinder.cfi;

/** CFI exists for {@code [start, end)} (or could not be searched) but cannot be used; says why. */
public record BadCfi(long start, long end, String message) implements RowResult {}
