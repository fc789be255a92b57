package org.ompprof.blame;

import org.ompprof.sampler.omp.MutexKind;

/** What waiting a charge stands for; each has its metric, and conservation holds per kind. */
public enum BlameKind {
    IDLE("idle_blame"),
    BARRIER("barrier_blame"),
    MUTEX_LOCK("mutex_blame.lock"),
    MUTEX_CRITICAL("mutex_blame.critical"),
    MUTEX_ATOMIC("mutex_blame.atomic"),
    MUTEX_ORDERED("mutex_blame.ordered");

    /** The parent metric of the four mutex kinds. */
    public static final String MUTEX_METRIC = "mutex_blame";

    private final String metric;

    BlameKind(String metric) {
        this.metric = metric;
    }

    public String metric() {
        return metric;
    }

    public boolean isMutex() {
        return ordinal() >= MUTEX_LOCK.ordinal();
    }

    /** By ompt_mutex_t: a construct's own kind, locks for the lock routines and unknown kinds. */
    public static BlameKind ofMutex(int omptMutexKind) {
        return switch (MutexKind.of(omptMutexKind)) {
            case CRITICAL -> MUTEX_CRITICAL;
            case ATOMIC -> MUTEX_ATOMIC;
            case ORDERED -> MUTEX_ORDERED;
            case LOCK, TEST_LOCK, NEST_LOCK, TEST_NEST_LOCK -> MUTEX_LOCK;
        };
    }
}
