package org.ompprof.calltree;

import java.util.function.IntUnaryOperator;

/** Copies one tree's paths and values into another, translating frame, metric and thread ids. */
final class TreeImport {
    private TreeImport() {}

    /** Returns the target node of each source node (index = source node id). */
    static int[] into(CallingContextTree target, CallingContextTree source, IntUnaryOperator threadMap) {
        int[] frameMap =
                target.frames() == source.frames() ? null : target.frames().importAll(source.frames());
        int[] metricMap =
                target.metrics() == source.metrics() ? null : target.metrics().importAll(source.metrics());
        int[] nodeMap = mapNodes(target, source, frameMap);
        for (int metric = 0; metric < source.metrics().size(); metric++) {
            int targetMetric = metricMap == null ? metric : metricMap[metric];
            source.forEachExclusive(
                    metric,
                    (node, thread, value) ->
                            target.add(nodeMap[node], threadMap.applyAsInt(thread), targetMetric, value));
        }
        return nodeMap;
    }

    static int[] paths(CallingContextTree target, CallingContextTree source) {
        int[] frameMap =
                target.frames() == source.frames() ? null : target.frames().importAll(source.frames());
        return mapNodes(target, source, frameMap);
    }

    /** Target node per source node; ids ascend from parents to children, so parents are mapped first. */
    private static int[] mapNodes(CallingContextTree target, CallingContextTree source, int[] frameMap) {
        int[] nodeMap = new int[source.size()];
        nodeMap[CallingContextTree.ROOT] = CallingContextTree.ROOT;
        for (int node = 1; node < nodeMap.length; node++) {
            int frame = source.frame(node);
            nodeMap[node] = target.child(nodeMap[source.parent(node)], frameMap == null ? frame : frameMap[frame]);
        }
        return nodeMap;
    }
}
