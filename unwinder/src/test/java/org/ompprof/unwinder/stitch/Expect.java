package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Assertions over many samples, with a tolerance and the failures shown when it is not met. */
final class Expect {
    /** The share of samples of a kind that must have exactly the expected path. */
    static final double TOLERANCE = 0.95;

    private Expect() {}

    static void mostly(String what, List<Stitched.Pair> selected, int atLeast, Predicate<Named> ok) {
        assertTrue(
                selected.size() >= atLeast, what + ": only " + selected.size() + " samples, want at least " + atLeast);
        List<Stitched.Pair> bad =
                selected.stream().filter(p -> !ok.test(p.stitched())).toList();
        double share = 1 - (double) bad.size() / selected.size();
        assertTrue(
                share >= TOLERANCE,
                String.format(
                        "%s: %d of %d samples (%.1f%%) as expected, want %.0f%%; others:%n%s",
                        what,
                        selected.size() - bad.size(),
                        selected.size(),
                        100 * share,
                        100 * TOLERANCE,
                        sample(bad)));
    }

    static void all(String what, List<Stitched.Pair> selected, Predicate<Named> ok) {
        List<Stitched.Pair> bad =
                selected.stream().filter(p -> !ok.test(p.stitched())).toList();
        assertTrue(
                bad.isEmpty(),
                what + ": " + bad.size() + " of " + selected.size() + " samples are not as expected:\n" + sample(bad));
    }

    private static String sample(List<Stitched.Pair> bad) {
        return bad.stream().limit(12).map(p -> "  " + p).collect(Collectors.joining("\n"));
    }

    /** Counters add up to the samples, and libomp's frame addresses matched exactly. */
    static void consistent(Stitched s) {
        assertTrue(
                s.counters().totalSamples() == s.samples().size(),
                s.counters() + " vs " + s.samples().size());
        assertTrue(s.counters().inexactFrameMatches() == 0, "frame addresses placed by position only: " + s.counters());
    }
}
