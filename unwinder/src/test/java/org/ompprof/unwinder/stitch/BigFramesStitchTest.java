package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * bigframes.c at default settings: six 48 KiB frames, far beyond the 16 KiB a stack copy
 * holds, are unwound whole by the agent's frame walk: every sample in leaf reads
 * main;run;descend x6;leaf (initial thread alone) or
 * main;run_parallel;run_parallel.omp_outlined;descend x6;leaf, and none is cut.
 */
class BigFramesStitchTest {
    private static final List<String> DESCENTS = Collections.nCopies(6, "descend");
    static Stitched run;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("bigframes", Map.of()));
    }

    @Test
    void leafSamplesHaveTheWholePath() {
        List<Stitched.Pair> inLeaf = run.samples().stream()
                .filter(p -> !p.stitched().userNames().isEmpty()
                        && p.stitched().userNames().getLast().equals("leaf"))
                .toList();
        // 0.3 s serial and 0.3 s parallel at 1 kHz: hundreds of samples in leaf (fewer on a loaded machine)
        assertTrue(inLeaf.size() > 100, inLeaf.size() + " samples in leaf");
        Expect.all(
                "leaf samples",
                inLeaf,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && (n.userNames().equals(path("main", "run"))
                                || n.userNames().equals(path("main", "run_parallel", "run_parallel.omp_outlined"))));
        long serial = inLeaf.stream()
                .filter(p -> p.stitched().userNames().get(1).equals("run"))
                .count();
        assertTrue(
                serial > 20 && inLeaf.size() - serial > 20,
                serial + " serial of " + inLeaf.size() + "; paths: "
                        + run.samples().stream()
                                .map(p -> p.stitched().userNames() + " "
                                        + p.stitched().sample().kind())
                                .collect(java.util.stream.Collectors.groupingBy(
                                        x -> x, java.util.stream.Collectors.counting())));
    }

    @Test
    void nothingIsTruncated() {
        assertEquals(
                0,
                run.counters().samples(StitchedSample.Kind.TRUNCATED),
                () -> run.described(StitchedSample.Kind.TRUNCATED));
        assertEquals(
                0,
                run.counters().samples(StitchedSample.Kind.UNRESOLVED),
                () -> run.described(StitchedSample.Kind.UNRESOLVED));
        Expect.consistent(run);
    }

    private static List<String> path(String... head) {
        List<String> p = new java.util.ArrayList<>(List.of(head));
        p.addAll(DESCENTS);
        p.add("leaf");
        return p;
    }
}
