package org.ompprof.calltree;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ompprof.sampler.omp.OmpState;

/**
 * The obvious reference: a map from (path of frames, thread, metric name) to exclusive value;
 * inclusive values by scanning all entries for the prefix. Slow and plainly right.
 */
final class NaiveTree {
    record Key(List<Frame> path, int thread, String metric) {}

    final Map<Key, Long> exclusive = new HashMap<>();

    void add(List<Frame> path, int thread, String metric, long value) {
        // a sum of zero removes the entry, as the tree keeps no zero values either
        if (value != 0)
            exclusive.merge(new Key(List.copyOf(path), thread, metric), value, (x, y) -> x + y == 0 ? null : x + y);
    }

    void addSample(int thread, List<Frame> path, int state, long weight) {
        add(path, thread, "samples", 1);
        add(path, thread, "time", weight);
        OmpState s = OmpState.of(state);
        add(path, thread, s.metricName(), weight);
        if (s.groupMetricName() != null) add(path, thread, s.groupMetricName(), weight);
    }

    void addAll(NaiveTree other) {
        other.exclusive.forEach((k, v) -> add(k.path(), k.thread(), k.metric(), v));
    }

    /** Exclusive sums over threads, under thread -1. */
    Map<Key, Long> exclusiveSums() {
        Map<Key, Long> out = new HashMap<>();
        exclusive.forEach((k, v) -> out.merge(new Key(k.path(), -1, k.metric()), v, Long::sum));
        return out;
    }

    /** Every (prefix, thread or -1, metric) sum, computed once: each value counts for every prefix of its path. */
    Map<Key, Long> inclusive() {
        Map<Key, Long> out = new HashMap<>();
        exclusive.forEach((k, v) -> {
            for (int i = 0; i <= k.path().size(); i++) {
                List<Frame> prefix = List.copyOf(k.path().subList(0, i));
                out.merge(new Key(prefix, k.thread(), k.metric()), v, Long::sum);
                out.merge(new Key(prefix, -1, k.metric()), v, Long::sum);
            }
        });
        return out;
    }

    /** Every prefix of every recorded path, the empty one included: the nodes a tree must have. */
    Set<List<Frame>> prefixes(Iterable<List<Frame>> allPaths) {
        Set<List<Frame>> out = new HashSet<>();
        for (List<Frame> p : allPaths) {
            for (int i = 0; i <= p.size(); i++) out.add(List.copyOf(p.subList(0, i)));
        }
        return out;
    }

    Set<Integer> threads() {
        Set<Integer> out = new HashSet<>();
        for (Key k : exclusive.keySet()) out.add(k.thread());
        return out;
    }

    /** The tree's values in this class's form, for comparing trees built on different tables. */
    static Map<Key, Long> contents(CallingContextTree tree) {
        Map<Key, Long> out = new HashMap<>();
        for (int metric = 0; metric < tree.metrics().size(); metric++) {
            String name = tree.metrics().metric(metric).name();
            tree.forEachExclusive(
                    metric, (node, thread, value) -> out.put(new Key(frames(tree, node), thread, name), value));
        }
        return out;
    }

    static List<Frame> frames(CallingContextTree tree, int node) {
        return Arrays.stream(tree.framePath(node))
                .mapToObj(tree.frames()::frame)
                .toList();
    }
}
