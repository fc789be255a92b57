package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Undeferred tasks (undeferred_tasks.c: each thread runs {@value #ROUNDS} trees of depth {@value #DEPTH} whose nodes
 * create their children as tasks with a false if clause, each leaf spinning {@value #MS} ms in leaf_work), built
 * without frame pointers as release builds are. libomp reports such a task's frames from the creating code's rbp, a
 * loop counter there: every sample in the task bodies came out {@code <omp runtime>} (EPCC taskbench's conditional
 * tasks, a recursion cut off with if()). Recorded with 2 threads and with 4 (twice the cores). Known answer: every
 * sample in leaf_work lies under main, the region, {@value #DEPTH} + 1 calls of tree and leaf_work; they weigh at least
 * 80% of the threads' work (sampling), at most three times it (on a loaded machine a leaf's wall time includes waiting
 * for a CPU).
 */
class UndeferredTasksEndToEndTest {
    private static final int ROUNDS = 20;
    private static final int DEPTH = 4;
    private static final int MS = 1;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void undeferredTaskBodiesAreUnderTheirCreators(int threads) throws Exception {
        Path profile = work.resolve("undeferred-" + threads + ".ompprof");
        Ompprof.Result rec = Ompprof.record(
                work,
                threads,
                profile,
                CPrograms.clangRelease("undeferred_tasks").toString(),
                String.valueOf(ROUNDS),
                String.valueOf(DEPTH),
                String.valueOf(MS));
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains("undeferred_tasks: " + threads + " threads"), rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--metric", "time", profile.toString());
        assertEquals(0, r.status(), r.err());
        List<String> expected = new ArrayList<>(
                List.of("main", "parallel at undeferred_tasks.c:" + CPrograms.pragma("undeferred_tasks", "parallel")));
        expected.addAll(Collections.nCopies(DEPTH + 1, "tree"));
        expected.add("leaf_work");
        double inWork = 0, placed = 0;
        for (CollapsedLine line : CollapsedLine.all(r.out())) {
            int at = line.frames().indexOf("leaf_work");
            if (at < 0) continue;
            inWork += line.ms();
            if (line.frames().subList(0, at + 1).equals(expected)) placed += line.ms();
        }
        double known = (double) threads * ROUNDS * (1 << DEPTH) * MS;
        assertTrue(
                inWork >= 0.8 * known && inWork <= 3 * known,
                String.format("%.0f ms in leaf_work, %.0f ms of work%n%s", inWork, known, r.out()));
        assertTrue(
                placed >= 0.95 * inWork,
                String.format("%.0f of %.0f ms under %s%n%s", placed, inWork, expected, r.out()));
    }
}
