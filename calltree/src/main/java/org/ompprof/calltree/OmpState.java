package org.ompprof.calltree;

/**
 * The OMPT thread states ({@code ompt_state_t}, OpenMP 5.x) and the {@code time.*} metric each
 * is counted in. A state with a group is counted in the group's metric too, so the group
 * metrics ({@code time.barrier}, ...) and the ungrouped states together partition
 * {@code time}.
 */
public enum OmpState {
    WORK_SERIAL(0x000, "work_serial", null),
    WORK_PARALLEL(0x001, "work_parallel", null),
    WORK_REDUCTION(0x002, "work_reduction", null),
    /** A barrier of unspecified kind: counted in {@code time.barrier} only. */
    WAIT_BARRIER(0x010, "barrier", null),
    WAIT_BARRIER_IMPLICIT_PARALLEL(0x011, "barrier.implicit_parallel", "barrier"),
    WAIT_BARRIER_IMPLICIT_WORKSHARE(0x012, "barrier.implicit_workshare", "barrier"),
    /** Deprecated in OpenMP 5.1 for the two above; older runtimes still report it. */
    WAIT_BARRIER_IMPLICIT(0x013, "barrier.implicit", "barrier"),
    WAIT_BARRIER_EXPLICIT(0x014, "barrier.explicit", "barrier"),
    WAIT_BARRIER_IMPLEMENTATION(0x015, "barrier.implementation", "barrier"),
    WAIT_BARRIER_TEAMS(0x016, "barrier.teams", "barrier"),
    WAIT_TASKWAIT(0x020, "taskwait", null),
    WAIT_TASKGROUP(0x021, "taskgroup", null),
    /** A mutex of unspecified kind. */
    WAIT_MUTEX(0x040, "mutex", null),
    WAIT_LOCK(0x041, "lock", null),
    WAIT_CRITICAL(0x042, "critical", null),
    WAIT_ATOMIC(0x043, "atomic", null),
    WAIT_ORDERED(0x044, "ordered", null),
    WAIT_TARGET(0x080, "target", null),
    WAIT_TARGET_MAP(0x081, "target", null),
    WAIT_TARGET_UPDATE(0x082, "target", null),
    IDLE(0x100, "idle", null),
    OVERHEAD(0x101, "overhead", null),
    /** Also where codes this table does not know go, so their time is still counted and visible. */
    UNDEFINED(0x102, "undefined", null);

    private final int code;
    private final String metricSuffix;
    private final String groupSuffix;

    OmpState(int code, String metricSuffix, String groupSuffix) {
        this.code = code;
        this.metricSuffix = metricSuffix;
        this.groupSuffix = groupSuffix;
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
