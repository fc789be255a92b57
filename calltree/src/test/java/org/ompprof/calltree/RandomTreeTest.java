package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Random profiles, built into a tree and into the naive reference, must agree on every query. */
class RandomTreeTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233})
    void treeAgreesWithTheNaiveReference(long seed) {
        RandomProfile profile = new RandomProfile(seed, 400);
        CallingContextTree tree = CallingContextTree.create();
        profile.buildInto(tree);
        NaiveTree naive = new NaiveTree();
        profile.buildInto(naive);

        Set<List<Frame>> paths = naive.prefixes(allPaths(profile));
        assertEquals(paths.size(), tree.size(), "one node per distinct path prefix");
        for (List<Frame> path : paths) checkShape(tree, paths, path);
        List<Integer> threads = new ArrayList<>(naive.threads());
        threads.add(4242);
        Expected expected = new Expected(naive.exclusive, naive.exclusiveSums(), naive.inclusive());
        // metric, then thread, then node: the order that lets the tree reuse its per-thread arrays
        for (Metric metric : tree.metrics().all()) {
            for (int t : threads) {
                for (List<Frame> path : paths) checkThreadValues(tree, expected, node(tree, path), path, t, metric);
            }
            for (List<Frame> path : paths) checkSums(tree, expected, node(tree, path), path, metric);
        }
        assertEquals(new HashSet<>(naive.threads()), threadSet(tree));
    }

    private record Expected(
            Map<NaiveTree.Key, Long> exclusive,
            Map<NaiveTree.Key, Long> exclusiveSums,
            Map<NaiveTree.Key, Long> inclusive) {
        long get(Map<NaiveTree.Key, Long> map, List<Frame> path, int thread, Metric metric) {
            return map.getOrDefault(new NaiveTree.Key(path, thread, metric.name()), 0L);
        }
    }

    private static int node(CallingContextTree tree, List<Frame> path) {
        int node = tree.find(RandomProfile.ids(tree, path));
        assertTrue(node >= 0, "node for " + path);
        return node;
    }

    private static void checkShape(CallingContextTree tree, Set<List<Frame>> paths, List<Frame> path) {
        int node = node(tree, path);
        assertEquals(path.size(), tree.depth(node));
        assertEquals(path, NaiveTree.frames(tree, node));
        assertEquals(childCount(paths, path), tree.children(node).length);
    }

    private static void checkThreadValues(
            CallingContextTree tree, Expected e, int node, List<Frame> path, int t, Metric m) {
        String what = m.name() + " thread " + t + " at " + path;
        assertEquals(e.get(e.exclusive(), path, t, m), tree.exclusive(node, t, m.index()), what);
        assertEquals(e.get(e.inclusive(), path, t, m), tree.inclusive(node, t, m.index()), what);
    }

    private static void checkSums(CallingContextTree tree, Expected e, int node, List<Frame> path, Metric m) {
        assertEquals(e.get(e.exclusiveSums(), path, -1, m), tree.exclusive(node, m.index()), m.name());
        assertEquals(e.get(e.inclusive(), path, -1, m), tree.inclusive(node, m.index()), m.name());
        ThreadValues byThread = tree.inclusiveByThread(node, m.index());
        for (int i = 0; i < byThread.size(); i++) {
            assertEquals(e.get(e.inclusive(), path, byThread.threads()[i], m), byThread.values()[i], m.name());
        }
        long sum = 0;
        for (long v : byThread.values()) sum += v;
        assertEquals(tree.inclusive(node, m.index()), sum, m.name() + " by thread adds up");
        ThreadValues exclusiveByThread = tree.exclusiveByThread(node, m.index());
        for (int i = 0; i < exclusiveByThread.size(); i++) {
            assertEquals(
                    e.get(e.exclusive(), path, exclusiveByThread.threads()[i], m),
                    exclusiveByThread.values()[i],
                    m.name());
        }
        if (path.isEmpty()) assertEquals(e.get(e.inclusive(), path, -1, m), tree.total(m.index()));
    }

    private static List<List<Frame>> allPaths(RandomProfile p) {
        List<List<Frame>> out = new ArrayList<>();
        p.samples.forEach(s -> out.add(s.path()));
        p.additions.forEach(a -> out.add(a.path()));
        return out;
    }

    private static long childCount(Set<List<Frame>> paths, List<Frame> path) {
        return paths.stream()
                .filter(p ->
                        p.size() == path.size() + 1 && p.subList(0, path.size()).equals(path))
                .count();
    }

    private static Set<Integer> threadSet(CallingContextTree tree) {
        Set<Integer> out = new HashSet<>();
        for (int t : tree.threads()) out.add(t);
        return out;
    }
}
