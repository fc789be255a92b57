package org.ompprof.sampler.omp;

/**
 * The kind of an OpenMP thread ({@code ompt_thread_t}; each constant but NONE is
 * {@code ompt_thread_} plus its name in lower case, pinned against omp-tools.h by
 * OmpVocabularyTest).
 */
public enum ThreadType {
    /** The recording did not learn the thread's type. */
    NONE(0, "-"),
    INITIAL(1, "initial"),
    WORKER(2, "worker"),
    OTHER(3, "other"),
    UNKNOWN(4, "unknown");

    private final int code;
    private final String displayName;

    ThreadType(int code, String displayName) {
        this.code = code;
        this.displayName = displayName;
    }

    public int code() {
        return code;
    }

    public String displayName() {
        return displayName;
    }

    /** The name of an {@code ompt_thread_t} value, {@code typeN} for one this table does not know. */
    public static String nameOf(int code) {
        for (ThreadType t : values()) if (t.code == code) return t.displayName;
        return "type" + code;
    }
}
