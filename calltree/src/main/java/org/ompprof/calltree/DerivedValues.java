package org.ompprof.calltree;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;

/**
 * Per-node arrays computed from the exclusive values (sums over threads, inclusive values),
 * kept until the tree changes. Sums over all threads are kept for every metric asked for
 * (8 bytes per node each); single-thread arrays only for the most recently used few, since a
 * viewer looks at one or two threads at a time and 256 threads x 1M nodes would not fit.
 */
final class DerivedValues {
    private static final int THREAD_ARRAYS_KEPT = 32;

    private final IntObjectHashMap<long[]> exclusiveSum = new IntObjectHashMap<>();
    private final IntObjectHashMap<long[]> inclusiveSum = new IntObjectHashMap<>();
    private final IntLongHashMap totals = new IntLongHashMap();
    private final Map<Long, long[]> inclusiveOfThread = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, long[]> eldest) {
            return size() > THREAD_ARRAYS_KEPT;
        }
    };
    private PreorderIntervals intervals;
    private boolean empty = true;

    /** Called on every change of the tree, so it must be cheap when nothing is cached. */
    void invalidate() {
        if (empty) return;
        exclusiveSum.clear();
        inclusiveSum.clear();
        totals.clear();
        inclusiveOfThread.clear();
        intervals = null;
        empty = true;
    }

    long[] exclusiveSum(int metric, Supplier<long[]> compute) {
        return cached(exclusiveSum, metric, compute);
    }

    long[] inclusiveSum(int metric, Supplier<long[]> compute) {
        return cached(inclusiveSum, metric, compute);
    }

    long total(int metric, LongSupplier compute) {
        if (totals.containsKey(metric)) return totals.get(metric);
        long t = compute.getAsLong();
        totals.put(metric, t);
        empty = false;
        return t;
    }

    /** The inclusive sums of {@code metric} if computed already, else null. */
    long[] knownInclusiveSum(int metric) {
        return inclusiveSum.get(metric);
    }

    long[] inclusiveOfThread(int metric, int thread, Supplier<long[]> compute) {
        long key = (long) metric << 32 | thread;
        long[] values = inclusiveOfThread.get(key);
        if (values == null) {
            values = compute.get();
            inclusiveOfThread.put(key, values);
            empty = false;
        }
        return values;
    }

    PreorderIntervals intervals(Supplier<PreorderIntervals> compute) {
        if (intervals == null) {
            intervals = compute.get();
            empty = false;
        }
        return intervals;
    }

    private long[] cached(IntObjectHashMap<long[]> cache, int metric, Supplier<long[]> compute) {
        long[] values = cache.get(metric);
        if (values == null) {
            values = compute.get();
            cache.put(metric, values);
            empty = false;
        }
        return values;
    }
}
