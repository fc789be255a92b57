package org.ompprof.unwinder.stitch;

/** What is missing from a path, worst last: the order is used to combine parts. */
enum Gap {
    NONE,
    /** Frames were cut off (the snapshot or unwind ended early); a {@link Placeholder#TRUNCATED} marks where. */
    TRUNCATED,
    /** A region's or task's creation was not recorded; a {@link Placeholder#UNKNOWN_CONTEXT} marks where. */
    UNKNOWN;

    Gap worst(Gap other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
