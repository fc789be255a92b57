package org.ompprof.calltree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.Metric;

class ProfileDiffTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 10, 77})
    void eachContextHoldsBaseNewAndTheirDifference(long seed) {
        CallingContextTree a = RandomRun.of(seed).profile().tree(),
                b = RandomRun.of(seed + 1).profile().tree();
        ProfileDiff.Result diff = ProfileDiff.of(a, b);
        Map<List<Object>, Long> va = values(a), vb = values(b), vd = values(diff.tree());
        Set<List<Object>> keys = new HashSet<>(va.keySet());
        keys.addAll(vb.keySet());
        for (List<Object> k : keys) {
            long x = va.getOrDefault(k, 0L), y = vb.getOrDefault(k, 0L);
            String name = (String) k.get(2);
            assertEquals(y, vd.getOrDefault(List.of(k.get(0), k.get(1), name), 0L), "B under the plain name " + k);
            assertEquals(x, vd.getOrDefault(List.of(k.get(0), k.get(1), ProfileDiff.BASE + name), 0L), "A " + k);
            assertEquals(
                    y - x, vd.getOrDefault(List.of(k.get(0), k.get(1), ProfileDiff.DELTA + name), 0L), "B - A " + k);
        }
        for (int node = 1; node < b.size(); node++) {
            assertEquals(
                    path(b, node), path(diff.tree(), diff.nodeMapOfB()[node]), "B's nodes map onto the same paths");
        }
    }

    private static Map<List<Object>, Long> values(CallingContextTree tree) {
        Map<List<Object>, Long> out = new HashMap<>();
        for (Metric m : tree.metrics().all()) {
            tree.forEachExclusive(
                    m.index(), (node, thread, v) -> out.put(List.of(path(tree, node), thread, m.name()), v));
        }
        return out;
    }

    private static List<Frame> path(CallingContextTree tree, int node) {
        return Arrays.stream(tree.framePath(node))
                .mapToObj(tree.frames()::frame)
                .toList();
    }
}
