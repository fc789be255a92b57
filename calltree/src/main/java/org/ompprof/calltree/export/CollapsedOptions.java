package org.ompprof.calltree.export;

import java.util.Objects;
import java.util.function.IntPredicate;
import org.ompprof.calltree.StandardMetrics;

/**
 * What a collapsed-stack export writes.
 *
 * @param metric name of the metric that weights each line
 * @param threads which threads' values count
 * @param detailedNames {@code function (file:line)} instead of the function alone (paths that
 *     differ only in lines then stay apart)
 * @param annotateKinds append async-profiler's type suffixes ({@code _[j]}, {@code _[i]},
 *     {@code _[k]}) so its converter colors frames as our flame graphs do
 */
public record CollapsedOptions(String metric, IntPredicate threads, boolean detailedNames, boolean annotateKinds) {
    private static final IntPredicate ALL_THREADS = t -> true;

    public CollapsedOptions {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(threads, "threads");
    }

    /** Samples, all threads, short names, no suffixes. */
    public static CollapsedOptions defaults() {
        return new CollapsedOptions(StandardMetrics.SAMPLES_NAME, ALL_THREADS, false, false);
    }

    public CollapsedOptions withMetric(String name) {
        return new CollapsedOptions(name, threads, detailedNames, annotateKinds);
    }

    public CollapsedOptions withThreads(IntPredicate accepted) {
        return new CollapsedOptions(metric, accepted, detailedNames, annotateKinds);
    }

    public CollapsedOptions withThread(int thread) {
        return withThreads(t -> t == thread);
    }

    public CollapsedOptions withDetailedNames(boolean on) {
        return new CollapsedOptions(metric, threads, on, annotateKinds);
    }

    public CollapsedOptions withAnnotatedKinds(boolean on) {
        return new CollapsedOptions(metric, threads, detailedNames, on);
    }
}
