package org.ompprof.blame;

import org.ompprof.sampler.omp.MutexKind;

/** What waiting a charge stands for; each has its metric, and conservation holds per kind. */
public enum BlameKind {
    IDLE("idle_blame"),
    BARRIER("barrier_blame"),
    MUTEX_LOCK("mutex_blame.lock"),
    MUTEX_CRITICAL("mutex_blame.critical"),
    MUTEX_ATOMIC("mutex_blame.atomic"),
    MUTEX_ORDERED("mutex_blame.ordered"),
    /**
     * Waiting of MPI ranks in a call for a rank that came late to it, charged to what the late rank ran meanwhile
     * ({@link CrossRankBlame}); charged only in a job profile merged from the ranks' profiles.
     */
    MPI("mpi_blame");

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
        return ordinal() >= MUTEX_LOCK.ordinal() && ordinal() <= MUTEX_ORDERED.ordinal();
    }

    /** Whether a single process's samples can show it (all but the job-wide {@link #MPI}). */
    public boolean isInProcess() {
        return this != MPI;
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
