package org.ompprof.calltree.build;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.sampler.mpi.MpiIntervals;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.unwinder.stitch.StitchedSample;

/**
 * The state a sample's time is counted in, where libomp 19's own is misleading: it leaves a
 * thread in a work state while it waits in a taskwait or at the end of a taskgroup (it reports
 * wait_taskwait and wait_taskgroup nowhere) and while it creates or schedules tasks in its own
 * code, so the stitched leaf, the runtime entry the user's code called, decides; and a worker
 * stays in its region's end barrier until the next fork, time the stitcher found to be
 * idleness, so it counts as idle. Inside an MPI call, the call's state.
 */
final class WaitStates {
    /** The runtime entries that wait for a task's children (libomp's own, and its GOMP-compatible ones). */
    static final List<String> TASKWAIT_ENTRIES =
            List.of("__kmpc_omp_taskwait", "__kmpc_omp_taskwait_deps_51", "GOMP_taskwait", "GOMP_taskwait_depend");

    /** The runtime entries that wait at a taskgroup's end. */
    static final List<String> TASKGROUP_ENTRIES = List.of("__kmpc_end_taskgroup", "GOMP_taskgroup_end");

    /**
     * libomp 19's exported task code other than waiting (checked against {@code nm -D libomp.so.5} by the tests):
     * allocating and queueing tasks (with dependences, affinity, detach), undeferred tasks and their dependences,
     * taskloops, taskyield, opening taskgroups, task reductions and completing proxy tasks. Not the queries
     * ({@code __kmpc_get_taskid}, ...), which a task's own code calls.
     */
    static final List<String> TASK_SCHEDULING_ENTRIES = List.of(
            "__kmpc_omp_task_alloc",
            "__kmpc_omp_target_task_alloc",
            "__kmpc_omp_task",
            "__kmpc_omp_task_parts",
            "__kmpc_omp_task_with_deps",
            "__kmpc_omp_reg_task_with_affinity",
            "__kmpc_omp_task_begin_if0",
            "__kmpc_omp_task_complete_if0",
            "__kmpc_omp_wait_deps",
            "__kmpc_omp_taskyield",
            "__kmpc_taskloop",
            "__kmpc_taskloop_5",
            "__kmpc_taskgroup",
            "__kmpc_task_allow_completion_event",
            "__kmpc_proxy_task_completed",
            "__kmpc_proxy_task_completed_ooo",
            "__kmpc_task_reduction_init",
            "__kmpc_taskred_init",
            "__kmpc_task_reduction_modifier_init",
            "__kmpc_taskred_modifier_init",
            "__kmpc_task_reduction_modifier_fini",
            "__kmpc_task_reduction_get_th_data",
            "GOMP_task",
            "GOMP_taskloop",
            "GOMP_taskloop_ull",
            "GOMP_taskyield",
            "GOMP_taskgroup_start",
            "GOMP_taskgroup_reduction_register",
            "GOMP_taskgroup_reduction_unregister",
            "GOMP_task_reduction_remap",
            "GOMP_workshare_task_reduction_unregister");

    private static final Map<String, Integer> BY_ENTRY = byEntry();
    private static final int IDLE = OmpState.IDLE.code();

    private WaitStates() {}

    static StitchedSample corrected(StitchedSample s, Frame leaf, MpiIntervals mpi) {
        StitchedSample omp = corrected(s, leaf);
        int state = mpi.stateAt(omp.threadSeq(), omp.timeNs(), omp.state());
        return state == omp.state() ? omp : withState(omp, state);
    }

    static StitchedSample corrected(StitchedSample s, Frame leaf) {
        if (s.kind() == StitchedSample.Kind.IDLE && s.state() != IDLE) return withState(s, IDLE);
        if (leaf == null
                || leaf.kind() != FrameKind.RUNTIME
                || OmpState.of(s.state()).waitClass() != WaitClass.WORK
                || leaf.function() == null) return s;
        Integer state = BY_ENTRY.get(leaf.function());
        return state == null ? s : withState(s, state);
    }

    private static Map<String, Integer> byEntry() {
        Map<String, Integer> m = new HashMap<>();
        TASKWAIT_ENTRIES.forEach(e -> m.put(e, OmpState.WAIT_TASKWAIT.code()));
        TASKGROUP_ENTRIES.forEach(e -> m.put(e, OmpState.WAIT_TASKGROUP.code()));
        TASK_SCHEDULING_ENTRIES.forEach(e -> m.put(e, OmpState.TASK_SCHEDULING.code()));
        return Map.copyOf(m);
    }

    private static StitchedSample withState(StitchedSample s, int state) {
        return new StitchedSample(
                s.threadSeq(), s.timeNs(), s.weightNs(), state, s.waitId(), s.regionId(), s.pathRootFirst(), s.kind());
    }
}
