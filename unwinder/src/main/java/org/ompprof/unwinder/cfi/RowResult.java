package org.ompprof.unwinder.cfi;

/**
 * The answer to "how do I unwind at this pc": a row, the news that no CFI covers the pc, or
 * the reason the CFI that covers it is unusable. Each answer holds for the relative pcs
 * {@code [start, end)}, which is what lets it be cached.
 */
public sealed interface RowResult permits UnwindRow, NoCfi, BadCfi {
    long start();

    long end();

    default boolean covers(long pc) {
        return start() <= pc && pc < end();
    }
}
