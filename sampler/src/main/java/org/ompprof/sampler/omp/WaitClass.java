package org.ompprof.sampler.omp;

/** What a sample's thread was doing, as far as blame is concerned. */
public enum WaitClass {
    /** Running user code (serial, parallel, reduction): a possible blamee. */
    WORK,
    /** No task to run; or a worker still reported in a finished region's end barrier. */
    IDLE,
    /** Waiting at any kind of barrier of a running region. */
    BARRIER,
    /** Waiting for a lock, critical, atomic or ordered. */
    MUTEX,
    /** Anything else (taskwait, taskgroup, task scheduling, target, overhead): shown as state time, not blamed. */
    OTHER;

    private static final WaitClass[] VALUES = values();

    /**
     * By ompt_state_t ({@link OmpState#waitClass()}); {@code idle} says the stitcher found the thread idle whatever its
     * state said.
     */
    public static WaitClass of(int ompState, boolean idle) {
        return idle ? IDLE : OmpState.of(ompState).waitClass();
    }

    /** The class of a stored ordinal (samples keep it as a byte). */
    public static WaitClass ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }
}
