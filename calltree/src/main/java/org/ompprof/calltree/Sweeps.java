package org.ompprof.calltree;

import java.util.function.IntPredicate;

/** Whole-tree computations over the value and node tables, each O(nodes + values). */
final class Sweeps {
    private Sweeps() {}

    /** Exclusive values of {@code metric} per node, summed over the threads {@code threads} accepts. */
    static long[] exclusive(ValueTable values, int nodeCount, int metric, IntPredicate threads) {
        long[] out = new long[nodeCount];
        values.forEachNonZero(metric, (node, thread, value) -> {
            if (threads.test(thread)) out[node] += value;
        });
        return out;
    }

    /** Inclusive values from exclusive ones: children have larger ids, so one descending pass suffices. */
    static long[] inclusive(long[] exclusive, int[] parents) {
        long[] out = exclusive.clone();
        for (int node = out.length - 1; node > 0; node--) out[parents[node]] += out[node];
        return out;
    }
}
