package org.ompprof.blame;

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
    /** Anything else (taskwait, taskgroup, target, overhead): shown as state time, not blamed. */
    OTHER;

    private static final WaitClass[] VALUES = values();

    /** By ompt_state_t; {@code idle} says the stitcher found the thread idle whatever its state said. */
    public static WaitClass of(int ompState, boolean idle) {
        if (idle || ompState == 0x100) return IDLE;
        if (ompState >= 0x000 && ompState <= 0x002) return WORK;
        if (ompState >= 0x010 && ompState <= 0x016) return BARRIER;
        if (ompState >= 0x040 && ompState <= 0x044) return MUTEX;
        return OTHER;
    }

    static WaitClass of(int ordinal) {
        return VALUES[ordinal];
    }
}
