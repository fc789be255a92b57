package org.ompprof.calltree.profile;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.FrameTable;
import org.ompprof.calltree.MetricRegistry;

/**
 * The TREE section: the shape, node by id (node minus parent, frame id; parents come before
 * their children, so ids rebuild in the same order), then per metric the non-zero exclusive
 * values as (node delta, thread, value) triples. Inclusive values are not stored: they are
 * one sweep away.
 */
public final class TreeCodec {
    private TreeCodec() {}

    public static byte[] encode(CallingContextTree tree) {
        ByteSink out = new ByteSink();
        out.varint(tree.size());
        for (int node = 1; node < tree.size(); node++) {
            out.varint(node - tree.parent(node));
            out.varint(tree.frame(node));
        }
        int metrics = tree.metrics().size();
        out.varint(metrics);
        ByteSink values = new ByteSink();
        for (int metric = 0; metric < metrics; metric++) {
            long[] pairs = {0};
            int[] previous = {0};
            ByteSink sink = values;
            tree.forEachExclusive(metric, (node, thread, value) -> {
                sink.zigzag(node - previous[0]);
                sink.varint(thread);
                sink.zigzag(value);
                previous[0] = node;
                pairs[0]++;
            });
            out.varint(pairs[0]);
            out.append(values);
            values = new ByteSink();
        }
        return out.toByteArray();
    }

    /** A tree over {@code frames} and {@code metrics} (as decoded from the same profile). */
    public static CallingContextTree decode(byte[] payload, FrameTable frames, MetricRegistry metrics) {
        ByteSource in = new ByteSource(payload);
        int size = in.count(0, "nodes");
        if (size < 1) throw new ProfileFormatException(0, "a tree has at least its root");
        if ((long) (size - 1) * 2 > payload.length) throw new ProfileFormatException(0, size + " nodes cannot fit in " + payload.length + " bytes");
        CallingContextTree tree = new CallingContextTree(frames, metrics);
        for (int node = 1; node < size; node++) {
            int at = in.position();
            int parent = node - in.bounded(node, "parent distance");
            int frame = in.bounded(frames.size() - 1L, "frame id");
            if (parent == node) throw new ProfileFormatException(at, "node " + node + " is its own parent");
            int made = tree.child(parent, frame);
            if (made != node) throw new ProfileFormatException(at, "node " + node + " repeats node " + made);
        }
        int metricCount = in.bounded(metrics.size(), "metric count");
        for (int metric = 0; metric < metricCount; metric++) values(in, tree, metric, size);
        in.end("tree");
        return tree;
    }

    private static void values(ByteSource in, CallingContextTree tree, int metric, int size) {
        int pairs = in.count(3, "values");
        long node = 0;
        for (int i = 0; i < pairs; i++) {
            int at = in.position();
            node += in.zigzag();
            int thread = in.bounded(CallingContextTree.MAX_THREAD, "thread");
            long value = in.zigzag();
            if (node < 0 || node >= size) throw new ProfileFormatException(at, "value for node " + node + " of " + size);
            if (value == 0) throw new ProfileFormatException(at, "a stored value is zero");
            tree.add((int) node, thread, metric, value);
        }
    }
}
