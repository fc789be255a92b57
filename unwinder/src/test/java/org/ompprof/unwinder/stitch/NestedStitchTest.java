package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * (b) nested.c with OMP_MAX_ACTIVE_LEVELS=2: two inner teams of two threads each. Every
 * thread's inner work is stitched under the inner region's creator, which is itself stitched
 * under the outer region's creator.
 */
class NestedStitchTest {
    private static final int WORK_PARALLEL = 0x1;
    static Stitched run;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("nested", StitchPrograms.env("OMP_MAX_ACTIVE_LEVELS", "2")));
    }

    @Test
    void innerWorkIsUnderBothRegionsCreators() {
        // Three parallel levels: the initial task's implicit region, outer and inner.
        List<Stitched.Pair> inner =
                run.select(s -> s.state() == WORK_PARALLEL && s.parallelLevels().size() == 3);
        Expect.mostly(
                "inner work",
                inner,
                100,
                n -> n.sample().kind() == StitchedSample.Kind.EXACT
                        && n.userNames()
                                .equals(List.of(
                                        "main",
                                        "outer_fn",
                                        "outer_fn.omp_outlined",
                                        "middle",
                                        "inner_fn",
                                        "inner_fn.omp_outlined",
                                        "inner_work"))
                        && !n.anyRuntimeFrame());
        assertEquals(
                4,
                inner.stream().map(p -> p.raw().threadSeq()).distinct().count(),
                "all four threads of the two inner teams");
    }

    @Test
    void countersAddUp() {
        Expect.consistent(run);
        assertEquals(3, run.counters().regions(), "outer region and two inner ones");
        assertEquals(0, run.counters().unknownContexts(), run.counters().toString());
    }
}
