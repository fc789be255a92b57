package org.ompprof.calltree;

/** What a frame of a calling context stands for; exports color frames by kind. */
public enum FrameKind {
    /** Code of the profiled program or its (non-OpenMP) libraries. */
    USER,
    /** A function of the OpenMP runtime (libomp) left visible by stitching. */
    RUNTIME,
    /**
     * Not a function but a fact about the sample: {@code <omp runtime>}, {@code <omp idle>},
     * {@code <truncated>}, {@code <unattributed>}. Kept in the tree so nothing is lost silently.
     */
    PLACEHOLDER,
    /** A function inlined into its caller (from debug info), shown as its own frame. */
    INLINED
}
