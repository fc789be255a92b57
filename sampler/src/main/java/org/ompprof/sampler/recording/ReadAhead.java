package org.ompprof.sampler.recording;

import java.util.concurrent.ExecutorService;

/**
 * How far ahead of its reader a recording's record sections are inflated and decoded, and on
 * which threads: the reader still takes every section in file order, so what it sees is the
 * same whether the sections were decoded ahead in parallel or one by one as it asks.
 *
 * @param pool the threads that decode ahead; null to decode on the reader's thread when it asks
 * @param depth how many sections may be decoded ahead of the reader (their records are held)
 * @param startDepth as many, before the reader takes its first section: a reader that waits before it starts (a
 *     profile build, for its first names) leaves the pool that long to work ahead
 */
public record ReadAhead(ExecutorService pool, int depth, int startDepth) {
    /** Every section decoded on the reader's thread, when it is reached. */
    public static final ReadAhead NONE = new ReadAhead(null, 0, 0);

    public ReadAhead {
        if (depth < 0 || (pool == null) != (depth == 0))
            throw new IllegalArgumentException("a pool needs a depth of at least 1, and no pool none");
        if (startDepth < depth) throw new IllegalArgumentException("a start depth below the depth: " + startDepth);
    }

    /** Up to {@code depth} sections decoded ahead on {@code pool}. */
    public static ReadAhead on(ExecutorService pool, int depth) {
        return new ReadAhead(pool, depth, depth);
    }

    /** As {@link #on(ExecutorService, int)}, up to {@code startDepth} until the reader takes its first section. */
    public static ReadAhead on(ExecutorService pool, int depth, int startDepth) {
        return new ReadAhead(pool, depth, startDepth);
    }

    /** How many sections may be decoded ahead of a reader that has taken {@code taken} sections. */
    int depthAfter(int taken) {
        return taken == 0 ? startDepth : depth;
    }

    /**
     * For {@code readers} read side by side (one per thread of a recording, merged in time order):
     * the depth shared among them, at least one section each, so what is held stays near one
     * reader's whatever the thread count.
     */
    public ReadAhead split(int readers) {
        if (pool == null) return this;
        int each = Math.max(1, readers);
        return new ReadAhead(pool, Math.max(1, depth / each), Math.max(1, startDepth / each));
    }

    public boolean isParallel() {
        return pool != null;
    }
}
