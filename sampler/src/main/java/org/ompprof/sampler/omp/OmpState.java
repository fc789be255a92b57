package org.ompprof.sampler.omp;

/**
 * The OMPT thread states ({@code ompt_state_t}, OpenMP 5.x; each constant is
 * {@code ompt_state_} plus its name in lower case, pinned against omp-tools.h by
 * OmpVocabularyTest): the one name every command and view shows for a state, the
 * {@code time.*} metric it is counted in, and what it means to blame. A state with a group is
 * counted in the group's metric too, so the group metrics ({@code time.barrier}, ...) and the
 * ungrouped states together partition {@code time}.
 *
 * <p>Time inside an MPI call is a state of its own too, {@code mpi.<call>} (metric
 * {@code time.mpi.<call>}, counted in {@code time.mpi}): not an OMPT value, but what a sample
 * of a thread between an MPI call's enter and exit record becomes ({@link #mpi(int)}); its code
 * is {@link #MPI_BASE} plus the call kind ({@code Wire.MPI_CALL_*}), above every
 * {@code ompt_state_t} value.
 *
 * <p>Task scheduling is a state of ompprof's own as well, {@code task_scheduling}: time a thread
 * spends in the runtime's code that creates and schedules tasks, which libomp reports as work.
 * No runtime reports it: a work-state sample whose leaf is one of the runtime's task entries
 * becomes it when the profile is built. Its code is {@link #SYNTHETIC_BASE}, above every
 * {@code ompt_state_t} value and below the MPI states ({@link #isOmpt()} tells these apart).
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
    /**
     * In the runtime's task code (creating, scheduling, completing tasks), which libomp reports as work: not an
     * OMPT value (see above). Waiting like taskwait's, not user work; blame still sees the thread as running the
     * program (a producer that creates tasks is what idle threads wait for).
     */
    TASK_SCHEDULING(Codes.TASK_SCHEDULING, "task_scheduling", null, WaitClass.OTHER),
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
    UNDEFINED(0x102, "undefined", null, WaitClass.OTHER),
    /** An MPI call of a kind without a state of its own. */
    MPI_OTHER(Codes.MPI_BASE, "mpi.other", "mpi", WaitClass.OTHER),
    MPI_INIT(Codes.MPI_BASE + 1, "mpi.init", "mpi", WaitClass.OTHER),
    MPI_FINALIZE(Codes.MPI_BASE + 2, "mpi.finalize", "mpi", WaitClass.OTHER),
    MPI_ALLREDUCE(Codes.MPI_BASE + 3, "mpi.allreduce", "mpi", WaitClass.OTHER),
    MPI_REDUCE(Codes.MPI_BASE + 4, "mpi.reduce", "mpi", WaitClass.OTHER),
    MPI_BCAST(Codes.MPI_BASE + 5, "mpi.bcast", "mpi", WaitClass.OTHER),
    MPI_BARRIER(Codes.MPI_BASE + 6, "mpi.barrier", "mpi", WaitClass.OTHER),
    MPI_ALLGATHER(Codes.MPI_BASE + 7, "mpi.allgather", "mpi", WaitClass.OTHER),
    MPI_ALLGATHERV(Codes.MPI_BASE + 8, "mpi.allgatherv", "mpi", WaitClass.OTHER),
    MPI_ALLTOALL(Codes.MPI_BASE + 9, "mpi.alltoall", "mpi", WaitClass.OTHER),
    MPI_ALLTOALLV(Codes.MPI_BASE + 10, "mpi.alltoallv", "mpi", WaitClass.OTHER),
    MPI_GATHER(Codes.MPI_BASE + 11, "mpi.gather", "mpi", WaitClass.OTHER),
    MPI_SCATTER(Codes.MPI_BASE + 12, "mpi.scatter", "mpi", WaitClass.OTHER),
    MPI_SEND(Codes.MPI_BASE + 13, "mpi.send", "mpi", WaitClass.OTHER),
    MPI_RECV(Codes.MPI_BASE + 14, "mpi.recv", "mpi", WaitClass.OTHER),
    MPI_ISEND(Codes.MPI_BASE + 15, "mpi.isend", "mpi", WaitClass.OTHER),
    MPI_IRECV(Codes.MPI_BASE + 16, "mpi.irecv", "mpi", WaitClass.OTHER),
    MPI_WAIT(Codes.MPI_BASE + 17, "mpi.wait", "mpi", WaitClass.OTHER),
    MPI_WAITALL(Codes.MPI_BASE + 18, "mpi.waitall", "mpi", WaitClass.OTHER),
    MPI_WAITANY(Codes.MPI_BASE + 19, "mpi.waitany", "mpi", WaitClass.OTHER),
    MPI_SENDRECV(Codes.MPI_BASE + 20, "mpi.sendrecv", "mpi", WaitClass.OTHER);

    /** The code of the MPI state of call kind 0 ({@code Wire.MPI_CALL_OTHER}); kind k is {@code MPI_BASE + k}. */
    public static final int MPI_BASE = Codes.MPI_BASE;

    /** The code of ompprof's first state of its own that is no {@code ompt_state_t} value, nor MPI. */
    public static final int SYNTHETIC_BASE = Codes.SYNTHETIC_BASE;

    private static final OmpState[] VALUES = values();
    private static final OmpState[] MPI_STATES =
            java.util.Arrays.stream(VALUES).filter(OmpState::isMpi).toArray(OmpState[]::new);

    /** Holds the codes where the constants can see them (an enum's own static fields come after them). */
    private static final class Codes {
        /** Above ompt_state_t (whose largest value is ompt_state_undefined, 0x102) and below the MPI states. */
        static final int SYNTHETIC_BASE = 0x8000;

        static final int TASK_SCHEDULING = SYNTHETIC_BASE;
        static final int MPI_BASE = 0x10000;
    }

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

    /**
     * The state's name wherever it is shown ({@code barrier.implicit_parallel}): its metric without {@code time.}, but
     * unique.
     */
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

    /**
     * Where a state comes in a report: work, waits, then the rest (the order of this enum); unknown values last, by
     * value.
     */
    public static int order(int code) {
        OmpState s = of(code);
        return s == UNDEFINED && code != UNDEFINED.code ? VALUES.length + (code & 0xffff) : s.ordinal();
    }

    /** Whether this is time inside an MPI call rather than an OMPT state. */
    public boolean isMpi() {
        return code >= MPI_BASE;
    }

    /** Whether this is an {@code ompt_state_t} value a runtime reports, not a state ompprof derives (MPI, tasks). */
    public boolean isOmpt() {
        return code < SYNTHETIC_BASE;
    }

    /**
     * The state of time inside an MPI call of kind {@code call} ({@code Wire.MPI_CALL_*}); unknown kinds are {@link
     * #MPI_OTHER}.
     */
    public static OmpState mpi(int call) {
        return call > 0 && call < MPI_STATES.length ? MPI_STATES[call] : MPI_OTHER;
    }

    /** The {@code ompt_state_t} value; ompprof's own code for a state no runtime reports ({@link #isOmpt()}). */
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
            case Codes.TASK_SCHEDULING -> TASK_SCHEDULING;
            default ->
                code >= MPI_BASE && code - MPI_BASE < MPI_STATES.length ? MPI_STATES[code - MPI_BASE] : UNDEFINED;
        };
    }
}
