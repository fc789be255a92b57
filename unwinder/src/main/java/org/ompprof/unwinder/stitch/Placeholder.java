package org.ompprof.unwinder.stitch;

/** A path element that is not a pc: what the runtime was doing, or where a path is cut. */
public enum Placeholder implements PathFrame {
    /** The thread had no task (between parallel regions, or waiting for one). */
    OMP_IDLE("<omp idle>"),
    /**
     * Inside the runtime with no user frame on the task's stack: the brief windows before a
     * task's user code starts or after it returned.
     */
    OMP_RUNTIME("<omp runtime>"),
    /**
     * Waiting at the implicit barrier that ends a parallel region, after the region's user code
     * returned (so no user frame remains); placed under the region's creation context.
     */
    OMP_BARRIER("<omp barrier>"),
    /** The frames outward of this point are unknown: the stack snapshot or the unwind ended early. */
    TRUNCATED("<truncated>"),
    /** The parallel region or task that this path belongs to was never announced (its record was lost). */
    UNKNOWN_CONTEXT("<unknown context>");

    private final String label;

    Placeholder(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
