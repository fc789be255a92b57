package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Creation contexts that differ in one word (two_paths.c): one construct creates every task, reached in turn through
 * two callers with frames of one size, so two creations differ only in the return address into their caller. The
 * agent gives most creations the shape of a walk it kept, after checking the words that walk read; a check that
 * skipped this one would put every task under the first caller. Recorded with 2 threads and with 4 (twice the
 * cores). Known answer: every sample in work lies under main, the region, one caller, spawn and the task; the tasks
 * created through via_long spin 2 units and those through via_short 1, so two thirds of the samples in work are under
 * via_long. Tolerance: 0.55-0.78 (sampling, and a loaded machine's late samples).
 */
class CreationPathsEndToEndTest {
    private static final int PAIRS = 300;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void tasksAreUnderTheCallerTheyWereCreatedThrough(int threads) throws Exception {
        Path profile = work.resolve("two_paths-" + threads + ".ompprof");
        Ompprof.Result rec = Ompprof.record(
                work, threads, profile, CPrograms.clang("two_paths").toString(), String.valueOf(PAIRS), "0.001");
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains("two_paths: " + PAIRS + " pairs of tasks"), rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertEquals(0, r.status(), r.err());
        String region = "parallel at two_paths.c:" + CPrograms.pragma("two_paths", "parallel"),
                task = "task at two_paths.c:" + CPrograms.pragma("two_paths", "task ");
        long inWork = 0, placed = 0, viaLong = 0;
        for (CollapsedLine line : CollapsedLine.all(r.out())) {
            List<String> frames = line.frames();
            long weight = line.weight();
            int at = frames.indexOf("work");
            if (at < 0) continue;
            inWork += weight;
            List<String> above = frames.subList(0, at);
            if (above.equals(List.of("main", region, "via_long", "spawn", task))) {
                placed += weight;
                viaLong += weight;
            } else if (above.equals(List.of("main", region, "via_short", "spawn", task))) {
                placed += weight;
            }
        }
        assertTrue(inWork >= 150, "about 0.45 s of task work at 1 kHz a thread, fewer loaded: " + inWork);
        assertEquals(inWork, placed, "every sample in work under one caller\n" + r.out());
        double share = (double) viaLong / inWork;
        assertTrue(share >= 0.55 && share <= 0.78, "under via_long: " + share + " of " + inWork + "\n" + r.out());
    }
}
