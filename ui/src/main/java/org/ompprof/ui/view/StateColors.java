package org.ompprof.ui.view;

import javafx.scene.paint.Color;
import org.ompprof.sampler.omp.OmpState;

/** One color per group of OMPT states, the same in the timeline, its legend and the region chart. */
final class StateColors {
    enum Group {
        WORK("work", "#43a047"),
        BARRIER("barrier", "#fb8c00"),
        MUTEX("lock/critical", "#e53935"),
        TASKWAIT("taskwait", "#fdd835"),
        TASK_SCHEDULING("task_scheduling", "#8d6e63"),
        IDLE("idle", "#bdbdbd"),
        TARGET("target", "#1e88e5"),
        MPI("mpi", "#00897b"),
        OTHER("overhead/other", "#8e24aa");

        final String label;
        final Color color;

        Group(String label, String web) {
            this.label = label;
            this.color = Color.web(web);
        }
    }

    private StateColors() {}

    static Group group(int ompState) {
        OmpState s = OmpState.of(ompState);
        if (s.isMpi()) return Group.MPI;
        return switch (s) {
            case WORK_SERIAL, WORK_PARALLEL, WORK_REDUCTION -> Group.WORK;
            case WAIT_BARRIER,
                    WAIT_BARRIER_IMPLICIT_PARALLEL,
                    WAIT_BARRIER_IMPLICIT_WORKSHARE,
                    WAIT_BARRIER_IMPLICIT,
                    WAIT_BARRIER_EXPLICIT,
                    WAIT_BARRIER_IMPLEMENTATION,
                    WAIT_BARRIER_TEAMS -> Group.BARRIER;
            case WAIT_MUTEX, WAIT_LOCK, WAIT_CRITICAL, WAIT_ATOMIC, WAIT_ORDERED -> Group.MUTEX;
            case WAIT_TASKWAIT, WAIT_TASKGROUP -> Group.TASKWAIT;
            case TASK_SCHEDULING -> Group.TASK_SCHEDULING;
            case IDLE -> Group.IDLE;
            case WAIT_TARGET, WAIT_TARGET_MAP, WAIT_TARGET_UPDATE -> Group.TARGET;
            default -> Group.OTHER; // overhead, undefined
        };
    }
}
