package org.ompprof.unwinder.cfi;

/**
 * A direct-mapped pc to row cache. Samples hit the same few return addresses over and over, so
 * a small table without eviction bookkeeping catches nearly all lookups. Slots are written
 * without locks: every value is immutable with final fields, so a racing reader sees either
 * the old or the new complete answer, and a lost write only costs a recomputation.
 */
final class RowCache {
    private final RowResult[] slots;
    private final int shift;

    RowCache(int bits) {
        this.slots = new RowResult[1 << bits];
        this.shift = 64 - bits;
    }

    RowResult get(long pc) {
        RowResult r = slots[index(pc)];
        return r != null && r.covers(pc) ? r : null;
    }

    void put(long pc, RowResult row) {
        slots[index(pc)] = row;
    }

    private int index(long pc) {
        return (int) ((pc * 0x9E3779B97F4A7C15L) >>> shift);
    }
}
