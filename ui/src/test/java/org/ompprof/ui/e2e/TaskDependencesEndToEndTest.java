package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tasks with dependences (task_depend.c: a wavefront of {@value #N} x {@value #N} tasks, each depending on its upper
 * and left neighbours and spinning {@value #MS} ms in cell_work). libomp shows such a task with an enter frame above
 * its exit frame while it runs (its creator's), which the stitcher once took for the task's: every sample in the
 * task bodies came out {@code <truncated>} in libomp (KASTORS' sparselu lost half its samples so). Recorded with 2
 * threads and with 4 (twice the cores). Known answer: every sample in cell_work lies under main, the region, the task
 * construct and cell_work, and they weigh at least 80% of the tasks' N x N x MS ms of work (sampling), at most three
 * times it (a task spins MS ms of wall time, and on a loaded machine the time it waits for a CPU is wall time in it).
 */
class TaskDependencesEndToEndTest {
    private static final int N = 16;
    private static final int MS = 2;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void tasksWithDependencesAreUnderTheirConstruct(int threads) throws Exception {
        Path profile = work.resolve("task_depend-" + threads + ".ompprof");
        Ompprof.Result rec = Ompprof.record(
                work,
                threads,
                profile,
                CPrograms.clang("task_depend").toString(),
                String.valueOf(N),
                String.valueOf(MS));
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains("task_depend: " + N + " x " + N + " tasks"), rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--metric", "time", profile.toString());
        assertEquals(0, r.status(), r.err());
        List<String> expected = List.of(
                "main",
                "parallel at task_depend.c:" + CPrograms.pragma("task_depend", "parallel"),
                "task at task_depend.c:" + CPrograms.pragma("task_depend", "task "),
                "cell_work");
        CollapsedLine.LeafTime t = CollapsedLine.leafTime(r.out(), expected);
        double inWork = t.inLeaf(), placed = t.placed();
        double known = (double) N * N * MS;
        assertTrue(
                inWork >= 0.8 * known && inWork <= 3 * known,
                String.format("%.0f ms in cell_work, %.0f ms of work%n%s", inWork, known, r.out()));
        assertTrue(
                placed >= 0.95 * inWork,
                String.format("%.0f of %.0f ms under %s%n%s", placed, inWork, expected, r.out()));
    }
}
