package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * (d) recursion.c: recursion to depth 300 in a parallel region, deeper than a 16 KiB stack
 * snapshot reaches, which the agent's frame walk unwinds whole. Each path is complete (or
 * would be marked truncated were it cut); none is garbled: after the region's context come only rec frames (as many as
 * a depth the program
 * used when the leaf is reached) and the leaf, or the region body's own call of
 * omp_get_thread_num.
 */
class RecursionStitchTest {
    private static final int WORK_PARALLEL = 0x1;
    private static final List<String> CONTEXT = List.of("main", "deep");
    static Stitched run;

    @BeforeAll
    static void record() {
        run = Stitched.of(StitchPrograms.recording("recursion", Map.of()));
    }

    @Test
    void deepPathsAreCompleteOrMarkedTruncated() {
        List<Stitched.Pair> working =
                run.select(s -> s.state() == WORK_PARALLEL && s.taskLevels().size() >= 2);
        Expect.all("recursion samples", working, RecursionStitchTest::wellFormed);
        // the agent walks the frames: none is cut at default settings, and the deepest are whole
        assertTrue(
                working.stream().noneMatch(p -> p.stitched().sample().kind() == StitchedSample.Kind.TRUNCATED),
                "none cut");
        assertTrue(
                working.stream()
                        .anyMatch(p -> p.stitched().sample().kind() == StitchedSample.Kind.EXACT
                                && recs(p.stitched().userNames()) == 301),
                "some complete 300 deep");
    }

    private static boolean wellFormed(Named n) {
        List<String> names = n.userNames();
        // a worker caught between its implicit task's start and the region's body (the runtime's window)
        if (n.sample().kind() == StitchedSample.Kind.RUNTIME_WINDOW)
            return names.equals(List.of("main", "deep", "<omp runtime>"));
        if (names.size() < 3 || !names.subList(0, 2).equals(CONTEXT)) return false;
        boolean truncated = names.get(2).equals("<truncated>");
        if (n.sample().kind() != (truncated ? StitchedSample.Kind.TRUNCATED : StitchedSample.Kind.EXACT)) return false;
        if (!truncated && !names.get(2).equals("deep.omp_outlined")) return false;
        List<String> rest = names.subList(3, names.size());
        // a snapshot that ends just past the region's body: its frame is there, what lies below it is not known
        if (truncated && !rest.isEmpty() && rest.getFirst().equals("deep.omp_outlined"))
            rest = rest.subList(1, rest.size());
        // The region body calls omp_get_thread_num between recursions: an API call the user made, kept as a leaf.
        if (!truncated && rest.equals(List.of("omp_get_thread_num"))) return true;
        int recs = recs(names);
        boolean atLeaf = !rest.isEmpty() && rest.getLast().equals("leaf");
        if (recs + (atLeaf ? 1 : 0) != rest.size() || rest.stream().limit(recs).anyMatch(x -> !x.equals("rec")))
            return false;
        if (!atLeaf || truncated) return recs <= 301;
        return recs % 10 == 1 && recs <= 301; // depth d has d + 1 rec frames, d in 0, 10, ..., 300
    }

    private static int recs(List<String> names) {
        return (int) names.stream().filter("rec"::equals).count();
    }

    @Test
    void countersAddUp() {
        Expect.consistent(run);
        assertFalse(
                run.counters().samples(StitchedSample.Kind.UNRESOLVED) > 0,
                () -> run.described(StitchedSample.Kind.UNRESOLVED));
    }
}
