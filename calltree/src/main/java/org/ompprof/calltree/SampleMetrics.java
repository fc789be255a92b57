package org.ompprof.calltree;

import org.ompprof.sampler.omp.OmpState;

/**
 * The metric indices one sample is added to, resolved once per tree so that adding a sample
 * costs no name look-ups. The MPI states' metrics are registered on the first sample in one
 * (-1 until then), so that profiles of programs without MPI do not list them.
 */
record SampleMetrics(int samples, int time, int[] stateMetric, int[] stateGroupMetric) {
    static SampleMetrics resolve(MetricRegistry registry) {
        StandardMetrics.registerInto(registry);
        OmpState[] states = OmpState.values();
        int[] metric = new int[states.length];
        int[] group = new int[states.length];
        SampleMetrics m = new SampleMetrics(
                registry.require(StandardMetrics.SAMPLES_NAME).index(),
                registry.require(StandardMetrics.TIME_NAME).index(),
                metric,
                group);
        m.fill(registry);
        return m;
    }

    /** The metric of state {@code ordinal}, registering the MPI family when it is first needed. */
    int stateMetric(MetricRegistry registry, int ordinal) {
        int metric = stateMetric[ordinal];
        if (metric >= 0) return metric;
        StandardMetrics.registerMpiInto(registry);
        fill(registry);
        return stateMetric[ordinal];
    }

    private void fill(MetricRegistry registry) {
        for (OmpState s : OmpState.values()) {
            Metric own = registry.find(s.metricName());
            Metric group = s.groupMetricName() == null ? null : registry.find(s.groupMetricName());
            stateMetric[s.ordinal()] = own == null ? -1 : own.index();
            stateGroupMetric[s.ordinal()] = group == null ? -1 : group.index();
        }
    }
}
