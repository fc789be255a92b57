package org.ompprof.calltree;

import java.util.LinkedHashSet;
import java.util.Set;
import org.ompprof.sampler.omp.OmpState;

/**
 * The metrics every profile has: {@code samples}, {@code time} and one {@code time.<state>}
 * per OpenMP state (see {@link OmpState}). In a registry made by
 * {@link MetricRegistry#standard()} they sit at fixed indices, starting with the two below.
 * The MPI states' metrics ({@code time.mpi}, {@code time.mpi.<call>}) only profiles of MPI
 * programs have ({@link #registerMpiInto}).
 */
public final class StandardMetrics {
    public static final String SAMPLES_NAME = "samples";
    public static final String TIME_NAME = "time";
    /** Index of {@code samples} in a standard registry. */
    public static final int SAMPLES = 0;
    /** Index of {@code time} in a standard registry. */
    public static final int TIME = 1;

    private StandardMetrics() {}

    /** Registers the standard metrics (those already there are kept) in a fixed order. */
    public static void registerInto(MetricRegistry registry) {
        registry.register(SAMPLES_NAME, MetricUnit.COUNT, "samples taken", MetricStorage.DENSE, null);
        registry.register(
                TIME_NAME, MetricUnit.NANOSECONDS, "sampled time (sum of sample weights)", MetricStorage.DENSE, null);
        for (String name : stateMetricNames()) {
            registry.register(
                    name,
                    MetricUnit.NANOSECONDS,
                    "time in OpenMP state " + name.substring(5),
                    MetricStorage.SPARSE,
                    parentOf(name));
        }
    }

    /** Registers {@code time.mpi} and its {@code time.mpi.<call>} (those already there are kept). */
    public static void registerMpiInto(MetricRegistry registry) {
        for (String name : names(true)) {
            String what =
                    "time inside MPI calls" + (name.equals("time.mpi") ? "" : ": " + name.substring("time.".length()));
            registry.register(name, MetricUnit.NANOSECONDS, what, MetricStorage.SPARSE, parentOf(name));
        }
    }

    /** Every {@code time.<state>} name of the OpenMP states, groups before their members, without repeats. */
    public static Set<String> stateMetricNames() {
        return names(false);
    }

    private static Set<String> names(boolean mpi) {
        Set<String> names = new LinkedHashSet<>();
        for (OmpState s : OmpState.values()) {
            if (s.isMpi() != mpi) continue;
            if (s.groupMetricName() != null) names.add(s.groupMetricName());
            names.add(s.metricName());
        }
        return names;
    }

    private static String parentOf(String stateMetric) {
        int dot = stateMetric.lastIndexOf('.');
        return dot == stateMetric.indexOf('.') ? TIME_NAME : stateMetric.substring(0, dot);
    }
}
