package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deep_region.c at default settings: a parallel region opened under six 48 KiB frames. The
 * region's creation context is walked by the agent when the region begins, so on both threads
 * the samples in leaf read main;descend x6;region;region.omp_outlined;leaf, none cut.
 */
class DeepRegionStitchTest {
    static Stitched run;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("deep_region", Map.of()));
    }

    @Test
    void workersSitUnderTheWholeCreationContext() {
        List<String> path = new ArrayList<>(List.of("main"));
        path.addAll(Collections.nCopies(6, "descend"));
        path.addAll(List.of("region", "region.omp_outlined", "leaf"));
        List<Stitched.Pair> inLeaf = run.samples().stream()
                .filter(p -> !p.stitched().userNames().isEmpty()
                        && p.stitched().userNames().getLast().equals("leaf"))
                .toList();
        Expect.all(
                "leaf samples",
                inLeaf,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.userNames().equals(path));
        // both threads, 0.5 s each at 1 kHz (fewer on a loaded machine: a signal waits for its thread to run)
        assertTrue(inLeaf.stream().map(p -> p.raw().threadSeq()).distinct().count() == 2, "both threads");
        assertTrue(inLeaf.size() > 100, inLeaf.size() + " samples in leaf");
    }

    @Test
    void nothingIsTruncated() {
        assertEquals(
                0,
                run.counters().samples(StitchedSample.Kind.TRUNCATED),
                run.counters() + "\n"
                        + run.samples().stream()
                                .filter(p -> p.stitched().sample().kind() == StitchedSample.Kind.TRUNCATED)
                                .map(p -> p + " " + p.raw().walk() + " rip 0x"
                                        + Long.toHexString(p.raw().context().rip()) + " stack "
                                        + p.raw().context().stackLength())
                                .toList());
        Expect.consistent(run);
    }
}
