package org.ompprof.calltree;

import org.ompprof.sampler.omp.OmpState;

/**
 * The metric indices one sample is added to, resolved once per tree so that adding a sample
 * costs no name look-ups.
 */
record SampleMetrics(int samples, int time, int[] stateMetric, int[] stateGroupMetric) {
    static SampleMetrics resolve(MetricRegistry registry) {
        StandardMetrics.registerInto(registry);
        OmpState[] states = OmpState.values();
        int[] metric = new int[states.length];
        int[] group = new int[states.length];
        for (OmpState s : states) {
            metric[s.ordinal()] = registry.require(s.metricName()).index();
            group[s.ordinal()] = s.groupMetricName() == null ? -1 : registry.require(s.groupMetricName()).index();
        }
        return new SampleMetrics(registry.require(StandardMetrics.SAMPLES_NAME).index(),
                registry.require(StandardMetrics.TIME_NAME).index(), metric, group);
    }
}
