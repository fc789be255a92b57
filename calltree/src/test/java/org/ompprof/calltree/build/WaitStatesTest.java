package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.unwinder.stitch.PathFrame;
import org.ompprof.unwinder.stitch.StitchedSample;

/**
 * Which runtime entries turn a work-state sample into task waiting or task scheduling: the lists against libomp 19's
 * exported task entry points, and what corrected does with a leaf.
 */
class WaitStatesTest {
    private static final String LIBOMP = "/usr/lib/llvm-19/lib/libomp.so.5";
    /** libomp's task exports that are no task code of the runtime: queries a task's code makes, internal helpers. */
    private static final Set<String> NOT_TASK_CODE = Set.of(
            "__kmpc_get_taskid",
            "__kmpc_get_parent_taskid",
            "__kmpc_omp_has_task_team",
            "__kmpc_omp_get_target_async_handle_ptr",
            "__kmpc_task_get_depnode",
            "__kmpc_task_get_successors",
            "__kmpc_invoke_task_func");

    private static StitchedSample sample(OmpState state, StitchedSample.Kind kind) {
        return new StitchedSample(
                1, 1_000, 1_000_000, state.code(), 0, 7, List.of(new PathFrame.Unmapped(0x1234)), kind);
    }

    private static int correctedState(OmpState state, Frame leaf) {
        return WaitStates.corrected(sample(state, StitchedSample.Kind.EXACT), leaf)
                .state();
    }

    private static Frame runtime(String function) {
        return Frame.of(FrameKind.RUNTIME, LIBOMP, function, null, 0);
    }

    private static List<String> allEntries() {
        return Stream.of(WaitStates.TASKWAIT_ENTRIES, WaitStates.TASKGROUP_ENTRIES, WaitStates.TASK_SCHEDULING_ENTRIES)
                .flatMap(List::stream)
                .toList();
    }

    /** Every task entry libomp exports is in one list, or named here as no task code; every listed one exists. */
    @Test
    void theListsAreLibompsTaskEntries() throws Exception {
        Process p = new ProcessBuilder("nm", "-D", "--defined-only", LIBOMP)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
        Set<String> exported = new TreeSet<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3) exported.add(f[2].replaceFirst("@.*", ""));
        }
        Set<String> task = new TreeSet<>();
        for (String e : exported) if (e.matches("__kmpc_.*task.*|GOMP_task.*|GOMP_.*task_reduction.*")) task.add(e);
        assertTrue(task.size() > 30, "libomp's task entries: " + task);

        List<String> listed = allEntries();
        assertEquals(listed.size(), new HashSet<>(listed).size(), "each entry in one list, once: " + listed);
        List<String> missing = new ArrayList<>(listed);
        missing.removeAll(exported);
        assertEquals(List.of(), missing, "listed, but libomp exports no such entry");
        Set<String> unlisted = new TreeSet<>(task);
        listed.forEach(unlisted::remove);
        unlisted.removeAll(NOT_TASK_CODE);
        assertEquals(Set.of(), unlisted, "libomp task entries in no list (and not named as no task code)");
    }

    @Test
    void aWorkSampleInTheRuntimesTaskCodeIsTaskScheduling() {
        for (String e : WaitStates.TASK_SCHEDULING_ENTRIES) {
            for (OmpState work : List.of(OmpState.WORK_PARALLEL, OmpState.WORK_SERIAL, OmpState.WORK_REDUCTION))
                assertEquals(OmpState.TASK_SCHEDULING.code(), correctedState(work, runtime(e)), e + " in " + work);
        }
        for (String e : WaitStates.TASKWAIT_ENTRIES)
            assertEquals(OmpState.WAIT_TASKWAIT.code(), correctedState(OmpState.WORK_PARALLEL, runtime(e)), e);
        for (String e : WaitStates.TASKGROUP_ENTRIES)
            assertEquals(OmpState.WAIT_TASKGROUP.code(), correctedState(OmpState.WORK_PARALLEL, runtime(e)), e);
    }

    /** Only the runtime's own entries in a work state: a user function of that name, a wait, other entries stay. */
    @Test
    void otherSamplesKeepTheirState() {
        Frame userNamedLikeIt = Frame.of(FrameKind.USER, "/usr/bin/app", "__kmpc_omp_task", "a.c", 3);
        assertEquals(OmpState.WORK_PARALLEL.code(), correctedState(OmpState.WORK_PARALLEL, userNamedLikeIt));
        assertEquals(
                OmpState.WAIT_BARRIER_EXPLICIT.code(),
                correctedState(OmpState.WAIT_BARRIER_EXPLICIT, runtime("__kmpc_omp_task")));
        assertEquals(OmpState.OVERHEAD.code(), correctedState(OmpState.OVERHEAD, runtime("__kmpc_omp_task_alloc")));
        for (String other : List.of("__kmpc_barrier", "__kmpc_get_taskid", "__kmpc_fork_call", "omp_get_thread_num"))
            assertEquals(OmpState.WORK_PARALLEL.code(), correctedState(OmpState.WORK_PARALLEL, runtime(other)), other);
        StitchedSample s = sample(OmpState.WORK_PARALLEL, StitchedSample.Kind.EXACT);
        assertSame(s, WaitStates.corrected(s, null), "no leaf: as it was");
        assertSame(s, WaitStates.corrected(s, Frame.unresolved(FrameKind.RUNTIME, LIBOMP, 0x40)));
    }

    /** The stitcher's idleness wins over the runtime entry. */
    @Test
    void idleSamplesAreIdle() {
        StitchedSample idle = sample(OmpState.WORK_PARALLEL, StitchedSample.Kind.IDLE);
        assertEquals(
                OmpState.IDLE.code(),
                WaitStates.corrected(idle, runtime("__kmpc_omp_task")).state());
    }

    /** Task scheduling is waiting in the profile's states, but to blame its thread runs the program, as MPI's do. */
    @Test
    void blameSeesTaskSchedulingAsWork() {
        assertEquals(WaitClass.OTHER, OmpState.TASK_SCHEDULING.waitClass());
        assertEquals(WaitClass.WORK, BlameStage.waitClass(sample(OmpState.TASK_SCHEDULING, StitchedSample.Kind.EXACT)));
        assertEquals(WaitClass.OTHER, BlameStage.waitClass(sample(OmpState.WAIT_TASKWAIT, StitchedSample.Kind.EXACT)));
        assertEquals(WaitClass.IDLE, BlameStage.waitClass(sample(OmpState.TASK_SCHEDULING, StitchedSample.Kind.IDLE)));
        assertEquals(WaitClass.WORK, BlameStage.waitClass(sample(OmpState.MPI_SEND, StitchedSample.Kind.EXACT)));
    }
}
