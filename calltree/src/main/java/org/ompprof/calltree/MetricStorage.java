package org.ompprof.calltree;

/**
 * How a tree stores a metric's exclusive values, one per (node, thread) pair that has any value.
 * The choice only affects memory: both give the same answers.
 */
public enum MetricStorage {
    /**
     * A long per pair in a flat array: 8 bytes per pair, for metrics that nearly every pair has
     * (samples, time).
     */
    DENSE,
    /**
     * A hash map from pair to value: about 24 to 48 bytes per pair that has the metric, nothing
     * for the others; for metrics that few pairs have (one OpenMP state per sample, blame).
     */
    SPARSE
}
