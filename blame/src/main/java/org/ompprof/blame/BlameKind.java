package org.ompprof.blame;

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

    /** By ompt_mutex_t (lock, test_lock, nest_lock, test_nest_lock, critical, atomic, ordered); locks for unknown kinds. */
    public static BlameKind ofMutex(int omptMutexKind) {
        return switch (omptMutexKind) {
            case 5 -> MUTEX_CRITICAL;
            case 6 -> MUTEX_ATOMIC;
            case 7 -> MUTEX_ORDERED;
            default -> MUTEX_LOCK;
        };
    }
}
