package org.ompprof.calltree.export;

import java.util.Objects;
import java.util.function.IntPredicate;
import org.ompprof.calltree.StandardMetrics;

/**
 * What an HTML flame graph shows.
 *
 * @param title heading of the page (plain text; escaped on output)
 * @param metric name of the metric frame widths are proportional to
 * @param threads which threads' values count
 * @param detailedNames {@code function (file:line)} instead of the function alone
 * @param inverted draw as an icicle graph (roots at the top)
 * @param minWidthPercent leave out frames narrower than this share of the total (0: keep all);
 *     keeps huge profiles small and fast in the browser
 */
public record FlameGraphOptions(
        String title,
        String metric,
        IntPredicate threads,
        boolean detailedNames,
        boolean inverted,
        double minWidthPercent) {
    public FlameGraphOptions {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(threads, "threads");
        if (!(minWidthPercent >= 0 && minWidthPercent < 100))
            throw new IllegalArgumentException("minWidthPercent " + minWidthPercent);
    }

    /** Samples of all threads, short names, flames upward, every frame kept. */
    public static FlameGraphOptions titled(String title) {
        return new FlameGraphOptions(title, StandardMetrics.SAMPLES_NAME, t -> true, false, false, 0);
    }

    public FlameGraphOptions withMetric(String name) {
        return new FlameGraphOptions(title, name, threads, detailedNames, inverted, minWidthPercent);
    }

    public FlameGraphOptions withThreads(IntPredicate accepted) {
        return new FlameGraphOptions(title, metric, accepted, detailedNames, inverted, minWidthPercent);
    }

    public FlameGraphOptions withThread(int thread) {
        return withThreads(t -> t == thread);
    }

    public FlameGraphOptions withDetailedNames(boolean on) {
        return new FlameGraphOptions(title, metric, threads, on, inverted, minWidthPercent);
    }

    public FlameGraphOptions withInverted(boolean on) {
        return new FlameGraphOptions(title, metric, threads, detailedNames, on, minWidthPercent);
    }

    public FlameGraphOptions withMinWidthPercent(double percent) {
        return new FlameGraphOptions(title, metric, threads, detailedNames, inverted, percent);
    }
}
