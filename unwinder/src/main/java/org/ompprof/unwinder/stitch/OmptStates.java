package org.ompprof.unwinder.stitch;

/** The ompt_state_t values (omp-tools.h) and thread types the stitcher decides by. */
final class OmptStates {
    static final int IDLE = 0x100;
    static final int BARRIER = 0x10;
    static final int BARRIER_IMPLICIT_PARALLEL = 0x11;
    static final int BARRIER_IMPLICIT = 0x13;
    static final int BARRIER_LAST = 0x16;
    static final int THREAD_WORKER = 2;
    static final int TASK_INITIAL = 1;
    static final int TASK_EXPLICIT = 4;
    /** Wire.SAMPLE_OMPT_READY: the sample's state and task levels were read from OMPT. */
    static final int SAMPLE_OMPT_READY = 1;

    private OmptStates() {}

    static boolean isBarrier(int state) {
        return state >= BARRIER && state <= BARRIER_LAST;
    }

    /**
     * States of a thread waiting at the barrier that ends a parallel region. libomp keeps a
     * worker in barrier_implicit_parallel after the region has ended, until the next region
     * starts (it reports the implicit task's end only then), so past the region's end these
     * mean idle.
     */
    static boolean isRegionEndBarrier(int state) {
        return state == BARRIER_IMPLICIT_PARALLEL || state == BARRIER_IMPLICIT || state == BARRIER;
    }
}
