package org.ompprof.sampler.omp;

/**
 * What an OMPT mutex event is about ({@code ompt_mutex_t}; each constant is {@code ompt_mutex_}
 * plus its name in lower case, pinned against omp-tools.h by OmpVocabularyTest).
 */
public enum MutexKind {
    LOCK(1),
    TEST_LOCK(2),
    NEST_LOCK(3),
    TEST_NEST_LOCK(4),
    CRITICAL(5),
    ATOMIC(6),
    ORDERED(7);

    private final int code;

    MutexKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Whether it is one of the four kinds of OpenMP lock (the lock routines), not a construct. */
    public boolean isLock() {
        return code <= TEST_NEST_LOCK.code;
    }

    /** The kind of an {@code ompt_mutex_t} value; {@link #LOCK} for a value this table does not know. */
    public static MutexKind of(int code) {
        for (MutexKind k : values()) if (k.code == code) return k;
        return LOCK;
    }
}
