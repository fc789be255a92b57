package org.ompprof.calltree.build;

import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.sampler.mpi.MpiIntervals;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.unwinder.stitch.StitchedSample;

/**
 * The state a sample's time is counted in, where libomp 19's own is misleading: it leaves a
 * thread in a work state while it waits in a taskwait or at the end of a taskgroup (it reports
 * wait_taskwait and wait_taskgroup nowhere), so the stitched leaf, the runtime entry the user
 * called, decides; and a worker stays in its region's end barrier until the next fork, time the
 * stitcher found to be idleness, so it counts as idle. Inside an MPI call, the call's state.
 */
final class WaitStates {
    private static final int WAIT_TASKWAIT = OmpState.WAIT_TASKWAIT.code();
    private static final int WAIT_TASKGROUP = OmpState.WAIT_TASKGROUP.code();
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
        int state = switch (leaf.function()) {
            case "__kmpc_omp_taskwait", "__kmpc_omp_taskwait_deps_51" -> WAIT_TASKWAIT;
            case "__kmpc_end_taskgroup" -> WAIT_TASKGROUP;
            default -> s.state();
        };
        return state == s.state() ? s : withState(s, state);
    }

    private static StitchedSample withState(StitchedSample s, int state) {
        return new StitchedSample(
                s.threadSeq(), s.timeNs(), s.weightNs(), state, s.waitId(), s.regionId(), s.pathRootFirst(), s.kind());
    }
}
