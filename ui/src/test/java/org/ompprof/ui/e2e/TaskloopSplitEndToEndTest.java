package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A taskloop libomp splits (taskloop_split.c: {@value #ROUNDS} rounds of {@value #CHUNKS} chunks, each iteration
 * spinning {@value #US} us in chunk_work): other threads create chunks' tasks in the name of the taskloop's task,
 * whose frames lie on the thread that met the taskloop. The creating thread's walk never met that task's exit frame
 * and took its own stack instead: chunks created there came out {@code main;<truncated>;__GI___clone3;start_thread;
 * task at ...}, under the creating thread's start. Recorded with 2 threads and with 4 (twice the cores). Known
 * answer: every sample in chunk_work lies under main, the region, the task construct and chunk_work, wherever the
 * chunk was created (elsewhere, it has the context of the splitting task the creating thread ran, which the
 * taskloop's task created at the taskloop). (Their weight is not the test's: the chunks' time depends on how the
 * threads share them; at least {@value #MIN_MS} ms of it, so that the placement is measured.)
 */
class TaskloopSplitEndToEndTest {
    private static final int ROUNDS = 50;
    private static final int CHUNKS = 512;
    private static final int US = 4;
    private static final int MIN_MS = 100;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void chunksCreatedOnOtherThreadsAreNotUnderTheirStart(int threads) throws Exception {
        Path profile = work.resolve("taskloop_split-" + threads + ".ompprof");
        Ompprof.Result rec = Ompprof.record(
                work,
                threads,
                profile,
                CPrograms.clang("taskloop_split").toString(),
                String.valueOf(ROUNDS),
                String.valueOf(CHUNKS),
                String.valueOf(US));
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains("taskloop_split: " + ROUNDS + " rounds"), rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--metric", "time", profile.toString());
        assertEquals(0, r.status(), r.err());
        String task = "task at taskloop_split.c:" + CPrograms.pragma("taskloop_split", "taskloop");
        List<String> here = List.of(
                "main",
                "parallel at taskloop_split.c:" + CPrograms.pragma("taskloop_split", "parallel"),
                task,
                "chunk_work");
        CollapsedLine.LeafTime t = CollapsedLine.leafTime(r.out(), here);
        double inWork = t.inLeaf(), placed = t.placed();
        assertTrue(inWork >= MIN_MS, String.format("%.0f ms in chunk_work%n%s", inWork, r.out()));
        assertTrue(
                placed >= 0.95 * inWork, String.format("%.0f of %.0f ms under %s%n%s", placed, inWork, here, r.out()));
    }
}
