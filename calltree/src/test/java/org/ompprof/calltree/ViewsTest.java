package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.views.BottomUp;
import org.ompprof.calltree.views.FlatProfile;

/** The callers and flat views against paper answers and against the top-down tree they come from. */
class ViewsTest {
    private static final long MS = 1_000_000;

    private static int[] path(CallingContextTree t, String... names) {
        int[] ids = new int[names.length];
        for (int i = 0; i < names.length; i++)
            ids[i] = t.frames().intern(Frame.of(FrameKind.USER, "app", names[i], "app.c", 0));
        return ids;
    }

    /** c runs 10 ms under a, 30 under b, 5 directly under main. */
    private static CallingContextTree callSites() {
        CallingContextTree t = CallingContextTree.create();
        t.addSample(1, path(t, "main", "a", "c"), 0x1, 10 * MS);
        t.addSample(1, path(t, "main", "b", "c"), 0x1, 30 * MS);
        t.addSample(2, path(t, "main", "c"), 0x1, 5 * MS);
        return t;
    }

    @Test
    void callersOfAFunctionGetExactlyTheirCallSitesShare() {
        CallingContextTree t = callSites();
        CallingContextTree bu = BottomUp.of(t);
        assertEquals(45 * MS, bu.inclusive(bu.find(path(bu, "c")), StandardMetrics.TIME));
        assertEquals(10 * MS, bu.inclusive(bu.find(path(bu, "c", "a")), StandardMetrics.TIME));
        assertEquals(30 * MS, bu.inclusive(bu.find(path(bu, "c", "b")), StandardMetrics.TIME));
        assertEquals(5 * MS, bu.inclusive(bu.find(path(bu, "c", "main")), StandardMetrics.TIME));
        assertEquals(10 * MS, bu.inclusive(bu.find(path(bu, "c", "a", "main")), StandardMetrics.TIME));
        assertEquals(5 * MS, bu.inclusive(bu.find(path(bu, "c", "main")), 2, StandardMetrics.TIME), "per thread too");
    }

    @Test
    void aCallersRowLeadsToTheHeaviestMatchingContext() {
        CallingContextTree t = callSites();
        t.addSample(1, path(t, "x", "b", "c"), 0x1, 2 * MS); // same callers b > c, under another root, lighter
        CallingContextTree bu = BottomUp.of(t);
        assertEquals(
                t.find(path(t, "main", "b", "c")),
                BottomUp.heaviestContext(t, bu, bu.find(path(bu, "c", "b")), StandardMetrics.TIME));
        assertEquals(
                t.find(path(t, "x", "b", "c")),
                BottomUp.heaviestContext(t, bu, bu.find(path(bu, "c", "b", "x")), StandardMetrics.TIME));
        assertEquals(
                t.find(path(t, "main", "c")),
                BottomUp.heaviestContext(t, bu, bu.find(path(bu, "c", "main")), StandardMetrics.TIME));
        assertEquals(-1, BottomUp.heaviestContext(t, bu, CallingContextTree.ROOT, StandardMetrics.TIME));
    }

    /** main > f > f > g (7 ms) and main > f (3 ms): recursion must not count f's time twice. */
    @Test
    void flatInclusiveCountsRecursionOnce() {
        CallingContextTree t = CallingContextTree.create();
        t.addSample(1, path(t, "main", "f", "f", "g"), 0x1, 7 * MS);
        t.addSample(1, path(t, "main", "f"), 0x1, 3 * MS);
        Map<String, long[]> rows = FlatProfile.of(t, StandardMetrics.TIME).stream()
                .collect(Collectors.toMap(r -> r.frame().name(), r -> new long[] {r.exclusive(), r.inclusive()}));
        assertEquals(List.of(3 * MS, 10 * MS), List.of(rows.get("f")[0], rows.get("f")[1]));
        assertEquals(List.of(7 * MS, 7 * MS), List.of(rows.get("g")[0], rows.get("g")[1]));
        assertEquals(List.of(0L, 10 * MS), List.of(rows.get("main")[0], rows.get("main")[1]));
        assertEquals(
                "main",
                FlatProfile.of(t, StandardMetrics.TIME).getFirst().frame().name(),
                "largest inclusive first");
    }

    /**
     * On random profiles: the same totals per metric and thread, and each function's callers add up to its own time.
     */
    @ParameterizedTest
    @ValueSource(longs = {3, 5, 8})
    void bottomUpConservesEverything(long seed) {
        CallingContextTree t = CallingContextTree.create();
        new RandomProfile(seed, 2000).buildInto(t);
        CallingContextTree bu = BottomUp.of(t);
        for (int m = 0; m < t.metrics().size(); m++) {
            assertEquals(t.total(m), bu.total(m), t.metrics().metric(m).name());
            for (int thread : t.threads()) assertEquals(t.total(m, thread), bu.total(m, thread));
        }
        long[] byFrame = new long[t.frames().size()];
        t.forEachExclusive(StandardMetrics.TIME, (node, thread, value) -> {
            if (node != CallingContextTree.ROOT)
                byFrame[t.frame(node)] += value; // samples with an empty path stay at the root
        });
        for (int root : bu.roots()) assertEquals(byFrame[bu.frame(root)], bu.inclusive(root, StandardMetrics.TIME));
    }
}
