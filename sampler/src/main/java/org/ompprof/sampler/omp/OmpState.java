package org.ompprof.sampler.omp;

/**
 * The OMPT thread states ({@code ompt_state_t}, OpenMP 5.x; each constant is
 * {@code ompt_state_} plus its name in lower case, pinned against omp-tools.h by
 * OmpVocabularyTest): the one name every command and view shows for a state, the
 * {@code time.*} metric it is counted in, and what it means to blame. A state with a group is
 * counted in the group's metric too, so the group metrics ({@code time.barrier}, ...) and the
 * ungrouped states together partition {@code time}.
 */
public enum OmpState {
    WORK_SERIAL(0x000, "work_serial", null, WaitClass.WORK),
    WORK_PARALLEL(0x001, "work_parallel", null, WaitClass.WORK),
    WORK_REDUCTION(0x002, "work_reduction", null, WaitClass.WORK),
    /** A barrier of unspecified kind: counted in {@code time.barrier} only. */
    WAIT_BARRIER(0x010, "barrier", null, WaitClass.BARRIER),
    WAIT_BARRIER_IMPLICIT_PARALLEL(0x011, "barrier.implicit_parallel", "barrier", WaitClass.BARRIER),
    WAIT_BARRIER_IMPLICIT_WORKSHARE(0x012, "barrier.implicit_workshare", "barrier", WaitClass.BARRIER),
    /** Deprecated in OpenMP 5.1 for the two above; older runtimes still report it. */
    WAIT_BARRIER_IMPLICIT(0x013, "barrier.implicit", "barrier", WaitClass.BARRIER),
    WAIT_BARRIER_EXPLICIT(0x014, "barrier.explicit", "barrier", WaitClass.BARRIER),
    WAIT_BARRIER_IMPLEMENTATION(0x015, "barrier.implementation", "barrier", WaitClass.BARRIER),
    WAIT_BARRIER_TEAMS(0x016, "barrier.teams", "barrier", WaitClass.BARRIER),
    WAIT_TASKWAIT(0x020, "taskwait", null, WaitClass.OTHER),
    WAIT_TASKGROUP(0x021, "taskgroup", null, WaitClass.OTHER),
    /** A mutex of unspecified kind. */
    WAIT_MUTEX(0x040, "mutex", null, WaitClass.MUTEX),
    WAIT_LOCK(0x041, "lock", null, WaitClass.MUTEX),
    WAIT_CRITICAL(0x042, "critical", null, WaitClass.MUTEX),
    WAIT_ATOMIC(0x043, "atomic", null, WaitClass.MUTEX),
    WAIT_ORDERED(0x044, "ordered", null, WaitClass.MUTEX),
    WAIT_TARGET(0x080, "target", null, WaitClass.OTHER),
    /** Counted in {@code time.target} with the other target waits, shown by a name of its own. */
    WAIT_TARGET_MAP(0x081, "target", null, WaitClass.OTHER, "target.map"),
    WAIT_TARGET_UPDATE(0x082, "target", null, WaitClass.OTHER, "target.update"),
    IDLE(0x100, "idle", null, WaitClass.IDLE),
    OVERHEAD(0x101, "overhead", null, WaitClass.OTHER),
    /** Also where codes this table does not know go, so their time is still counted and visible. */
    UNDEFINED(0x102, "undefined", null, WaitClass.OTHER);

    private static final OmpState[] VALUES = values();
    private final int code;
    private final String metricSuffix;
    private final String groupSuffix;
    private final WaitClass waitClass;
    private final String displayName;

    OmpState(int code, String metricSuffix, String groupSuffix, WaitClass waitClass) {
        this(code, metricSuffix, groupSuffix, waitClass, metricSuffix);
    }

    OmpState(int code, String metricSuffix, String groupSuffix, WaitClass waitClass, String displayName) {
        this.code = code;
        this.metricSuffix = metricSuffix;
        this.groupSuffix = groupSuffix;
        this.waitClass = waitClass;
        this.displayName = displayName;
    }

    /** The state's name wherever it is shown ({@code barrier.implicit_parallel}): its metric without {@code time.}, but unique. */
    public String displayName() {
        return displayName;
    }

    /** What the state means to blame: working, idle, at a barrier, waiting for a mutex, or other. */
    public WaitClass waitClass() {
        return waitClass;
    }

    /**
     * Whether a thread in this state waits at the barrier that ends a parallel region. libomp
     * keeps a worker in barrier_implicit_parallel after the region has ended, until the next
     * region starts, so past the region's end these mean idle.
     */
    public boolean isRegionEndBarrier() {
        return this == WAIT_BARRIER_IMPLICIT_PARALLEL || this == WAIT_BARRIER_IMPLICIT || this == WAIT_BARRIER;
    }

    /** The name of an {@code ompt_state_t} value; {@code state_0x...} for a value this table does not know. */
    public static String nameOf(int code) {
        OmpState s = of(code);
        return s == UNDEFINED && code != UNDEFINED.code ? String.format("state_0x%x", code) : s.displayName();
    }

    /** Where a state comes in a report: work, waits, then the rest (the order of this enum); unknown values last, by value. */
    public static int order(int code) {
        OmpState s = of(code);
        return s == UNDEFINED && code != UNDEFINED.code ? VALUES.length + (code & 0xffff) : s.ordinal();
    }

    /** The {@code ompt_state_t} value. */
    public int code() {
        return code;
    }

    /** The metric this state's time is counted in, e.g. {@code time.barrier.explicit}. */
    public String metricName() {
        return "time." + metricSuffix;
    }

    /** The group metric it is counted in as well, e.g. {@code time.barrier}; null if none. */
    public String groupMetricName() {
        return groupSuffix == null ? null : "time." + groupSuffix;
    }

    /** The state of an {@code ompt_state_t} value; {@link #UNDEFINED} for unknown values. */
    public static OmpState of(int code) {
        // a switch, not a map: this runs once per sample
        return switch (code) {
            case 0x000 -> WORK_SERIAL;
            case 0x001 -> WORK_PARALLEL;
            case 0x002 -> WORK_REDUCTION;
            case 0x010 -> WAIT_BARRIER;
            case 0x011 -> WAIT_BARRIER_IMPLICIT_PARALLEL;
            case 0x012 -> WAIT_BARRIER_IMPLICIT_WORKSHARE;
            case 0x013 -> WAIT_BARRIER_IMPLICIT;
            case 0x014 -> WAIT_BARRIER_EXPLICIT;
            case 0x015 -> WAIT_BARRIER_IMPLEMENTATION;
            case 0x016 -> WAIT_BARRIER_TEAMS;
            case 0x020 -> WAIT_TASKWAIT;
            case 0x021 -> WAIT_TASKGROUP;
            case 0x040 -> WAIT_MUTEX;
            case 0x041 -> WAIT_LOCK;
            case 0x042 -> WAIT_CRITICAL;
            case 0x043 -> WAIT_ATOMIC;
            case 0x044 -> WAIT_ORDERED;
            case 0x080 -> WAIT_TARGET;
            case 0x081 -> WAIT_TARGET_MAP;
            case 0x082 -> WAIT_TARGET_UPDATE;
            case 0x100 -> IDLE;
            case 0x101 -> OVERHEAD;
            default -> UNDEFINED;
        };
    }
}
