package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MergeTest {
    /** Each tree on its own frame table and registry, so merging must remap frames and metrics. */
    private static CallingContextTree build(RandomProfile profile, boolean blameFirst) {
        MetricRegistry registry = new MetricRegistry();
        if (blameFirst) registry.register(RandomProfile.BLAME, MetricUnit.NANOSECONDS, "", MetricStorage.SPARSE, null);
        CallingContextTree tree = new CallingContextTree(new FrameTable(), registry);
        profile.buildInto(tree);
        return tree;
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 11, 19, 42, 1234})
    void mergeIsAssociativeAndEqualsTheUnion(long seed) {
        RandomProfile pa = new RandomProfile(seed, 300),
                pb = new RandomProfile(seed + 1, 300),
                pc = new RandomProfile(seed + 2, 300);
        CallingContextTree a = build(pa, false), b = build(pb, true), c = build(pc, false);

        Map<NaiveTree.Key, Long> left = NaiveTree.contents(CallingContextTree.merge(CallingContextTree.merge(a, b), c));
        Map<NaiveTree.Key, Long> right =
                NaiveTree.contents(CallingContextTree.merge(a, CallingContextTree.merge(b, c)));
        assertEquals(left, right);

        NaiveTree union = new NaiveTree();
        pa.buildInto(union);
        pb.buildInto(union);
        pc.buildInto(union);
        assertEquals(union.exclusive, left);
    }

    @ParameterizedTest
    @ValueSource(longs = {3, 4})
    void mergeWithItselfDoublesAndThreadMapKeepsRunsApart(long seed) {
        CallingContextTree a = build(new RandomProfile(seed, 200), false);
        CallingContextTree doubled = CallingContextTree.merge(a, a);
        for (int m = 0; m < a.metrics().size(); m++) assertEquals(2 * a.total(m), doubled.total(m));

        CallingContextTree apart = CallingContextTree.merge(a, CallingContextTree.create());
        apart.addAll(a, t -> t < 1000 ? t + 1000 : t);
        int samples = a.metrics().require("samples").index();
        for (int t : a.threads()) {
            if (t >= 1000) continue;
            assertEquals(a.total(samples, t), apart.total(samples, t + 1000));
            assertEquals(a.total(samples, t), apart.total(samples, t));
        }
    }
}
