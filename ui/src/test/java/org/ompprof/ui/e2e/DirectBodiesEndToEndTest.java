package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bodies whose frames a release build (clang -O2, without frame pointers) hides or the runtime misreports: bodies the
 * program's own code calls rather than the runtime, and bodies a tail call away. Each known answer is a leaf whose
 * samples must all lie under one path and weigh at least 80% of its known work (sampling), at most three times it (on
 * a loaded machine a leaf's wall time includes waiting for a CPU):
 * <ul>
 *   <li>undeferred tasks (undeferred_tasks.c: each thread runs {@value #ROUNDS} trees of depth {@value #DEPTH} whose
 *       nodes create their children as tasks with a false if clause, each leaf spinning {@value #MS} ms). libomp
 *       reports such a task's frames from the creating code's rbp, a loop counter there: every sample in the task
 *       bodies came out {@code <omp runtime>} (EPCC taskbench's conditional tasks, a recursion cut off with if()).
 *       Recorded with 2 threads and with 4 (twice the cores).
 *   <li>serialized regions (serialized_regions.c: {@value #SERIAL_ROUNDS} rounds of a region whose if clause is false,
 *       and of one nested in another, each spinning {@value #SERIAL_MS} ms). libomp reports such a region's implicit
 *       task with the exit frame of its own call, returned before the body runs: every sample in the bodies came out
 *       {@code <omp runtime>}, with frame pointers or without.
 *   <li>regions whose whole body is one call (tail_called_bodies.c: {@value #TAIL_ROUNDS} rounds of two such regions in
 *       one function, each spinning {@value #TAIL_MS} ms on every thread). The outlined body jumps to the call, so no
 *       frame of it is on the stack: the samples came out right under the opening function, without the region (NPB
 *       BT's adi, IS's main). The second region is the function's last statement, which it opens in a tail call: its
 *       call site is in the function's caller, and the region is named by the function that opened it.
 * </ul>
 */
class DirectBodiesEndToEndTest {
    private static final int ROUNDS = 20;
    private static final int DEPTH = 4;
    private static final int MS = 1;
    private static final int SERIAL_ROUNDS = 100;
    private static final int SERIAL_MS = 2;
    private static final int TAIL_ROUNDS = 50;
    private static final int TAIL_MS = 2;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void undeferredTaskBodiesAreUnderTheirCreators(int threads) throws Exception {
        String collapsed = record("undeferred_tasks", threads, ROUNDS, DEPTH, MS);
        List<String> path = new ArrayList<>(List.of("main", region("undeferred_tasks", 0)));
        path.addAll(Collections.nCopies(DEPTH + 1, "tree"));
        path.add("leaf_work");
        assertPlaced(collapsed, path, (double) threads * ROUNDS * (1 << DEPTH) * MS);
    }

    @Test
    void serializedRegionBodiesAreUnderTheirRegions() throws Exception {
        String collapsed = record("serialized_regions", 2, SERIAL_ROUNDS, SERIAL_MS);
        double known = (double) SERIAL_ROUNDS * SERIAL_MS;
        assertPlaced(collapsed, List.of("main", "serial_phase", region("serialized_regions", 0), "alone_work"), known);
        assertPlaced(
                collapsed,
                List.of(
                        "main",
                        "nested_phase",
                        region("serialized_regions", 1),
                        region("serialized_regions", 2),
                        "nested_work"),
                known);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void tailCalledBodiesAreUnderTheirRegions(int threads) throws Exception {
        String collapsed = record("tail_called_bodies", threads, TAIL_ROUNDS, TAIL_MS);
        double known = (double) threads * TAIL_ROUNDS * TAIL_MS;
        assertPlaced(collapsed, List.of("main", "phase", region("tail_called_bodies", 0), "first_work"), known);
        assertPlaced(collapsed, List.of("main", "parallel in phase", "second_work"), known);
    }

    /** The program built -O2, recorded on {@code threads} threads, exported as collapsed stacks of time. */
    private String record(String program, int threads, int... args) throws Exception {
        Path profile = work.resolve(program + "-" + threads + ".ompprof");
        List<String> command =
                new ArrayList<>(List.of(CPrograms.clangRelease(program).toString()));
        for (int a : args) command.add(String.valueOf(a));
        Ompprof.Result rec = Ompprof.record(work, threads, profile, command.toArray(String[]::new));
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains(program + ": "), rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--metric", "time", profile.toString());
        assertEquals(0, r.status(), r.err());
        return r.out();
    }

    /** The display name of the program's {@code index}th parallel construct. */
    private static String region(String program, int index) {
        return "parallel at " + program + ".c:"
                + CPrograms.pragmas(program, "parallel").get(index);
    }

    /** Every sample in the path's leaf lies under the path, and they weigh about the known work. */
    private static void assertPlaced(String collapsed, List<String> path, double knownMs) {
        String leaf = path.getLast();
        CollapsedLine.LeafTime t = CollapsedLine.leafTime(collapsed, path);
        double inLeaf = t.inLeaf(), placed = t.placed();
        assertTrue(
                inLeaf >= 0.8 * knownMs && inLeaf <= 3 * knownMs,
                String.format("%.0f ms in %s, %.0f ms of work%n%s", inLeaf, leaf, knownMs, collapsed));
        assertTrue(
                placed >= 0.95 * inLeaf,
                String.format("%.0f of %.0f ms under %s%n%s", placed, inLeaf, path, collapsed));
    }
}
