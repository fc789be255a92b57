package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Task recursion beyond {@link RecursionFold#FROM_FRAMES} frames: chains of creations built through an {@link
 * Interner} as the context resolver builds them, segments of 2 frames each.
 */
class RecursionFoldTest {
    private final Interner interner = new Interner();

    private Segment segment(long pc) {
        return interner.segment(new Segment(
                List.of(new PathFrame.Code(1, "/bin/prog", pc, true), new PathFrame.Code(1, "/bin/prog", pc + 1, true)),
                Gap.NONE));
    }

    /** The context after creating each of {@code sequence}'s segments in turn, from the root. */
    private List<ContextNode> chain(List<Segment> sequence) {
        List<ContextNode> out = new ArrayList<>();
        ContextNode at = ContextNode.ROOT;
        for (Segment s : sequence) out.add(at = interner.child(at, s));
        return out;
    }

    /** A task creating itself 10,000 levels deep: exact to the limit, then each level stands for the one above it. */
    @Test
    void aTaskCreatingItselfFoldsOntoTheLevelAbove() {
        Segment s = segment(0x100);
        List<ContextNode> c = chain(Collections.nCopies(10_000, s));
        int exact = RecursionFold.FROM_FRAMES / 2; // levels of 2 frames up to the limit
        for (int i = 0; i < exact; i++) assertEquals(2 * (i + 1), c.get(i).depth(), "level " + i);
        for (int i = exact; i < c.size(); i++) assertSame(c.get(exact - 1), c.get(i), "level " + i);
        assertEquals(10_000 - exact, interner.folded());
        assertEquals(exact, interner.distinctContexts());
    }

    /**
     * fib's two task constructs, created in any order (a pseudo-random one here): a binary chain always ends in a
     * repeat of 1 or 2 creations soon, so no context is deeper than the limit and a few levels.
     */
    @Test
    void twoConstructsInAnyOrderStayNearTheLimit() {
        Segment a = segment(0x100), b = segment(0x200);
        Random rnd = new Random(42);
        List<Segment> seq = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) seq.add(rnd.nextBoolean() ? a : b);
        int deepest = chain(seq).stream().mapToInt(ContextNode::depth).max().orElseThrow();
        assertTrue(deepest <= RecursionFold.FROM_FRAMES + 8, "deepest " + deepest);
        assertTrue(interner.folded() > 0);
    }

    /**
     * Three constructs in a square-free order (no block of creations repeats right after itself, Thue's sequence) never
     * fold: the chain is cut at {@link RecursionFold#CUT_FRAMES}, and the contexts up to there are exact.
     */
    @Test
    void aChainThatNeverRepeatsIsCut() {
        Segment[] abc = {segment(0x100), segment(0x200), segment(0x300)};
        List<Segment> seq = new ArrayList<>();
        for (int letter : squareFree(6_000)) seq.add(abc[letter]);
        List<ContextNode> c = chain(seq);
        int deepest = c.stream().mapToInt(ContextNode::depth).max().orElseThrow();
        assertTrue(
                deepest >= RecursionFold.CUT_FRAMES && deepest <= RecursionFold.CUT_FRAMES + 2, "deepest " + deepest);
        for (int i = 0; i < RecursionFold.CUT_FRAMES / 2; i++)
            assertEquals(2 * (i + 1), c.get(i).depth(), "level " + i);
    }

    /** A shallow chain is never folded, however it repeats. */
    @Test
    void shallowRecursionIsExact() {
        Segment s = segment(0x100);
        List<ContextNode> c = chain(Collections.nCopies(100, s));
        for (int i = 0; i < c.size(); i++) assertEquals(2 * (i + 1), c.get(i).depth());
        assertEquals(0, interner.folded());
    }

    /**
     * The first n letters of a square-free word over {0, 1, 2}: the numbers of 1s between consecutive 0s of the
     * Thue-Morse sequence.
     */
    private static List<Integer> squareFree(int n) {
        List<Integer> out = new ArrayList<>();
        int lastZero = 0;
        for (int i = 1; out.size() < n; i++) {
            if (Integer.bitCount(i) % 2 != 0) continue;
            out.add(i - lastZero - 1);
            lastZero = i;
        }
        return out;
    }
}
