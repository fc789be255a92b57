package org.ompprof.calltree;

import org.ompprof.calltree.profile.ByteSink;
import org.ompprof.calltree.profile.ByteSource;
import org.ompprof.sampler.recording.BadSectionException;

/**
 * The TREE section of a profile: the shape, node by id (node minus parent, frame id; parents
 * come before their children, so ids rebuild in the same order); the value slots, one per
 * (node, thread) pair that has values; then per metric the non-zero exclusive values as (slot,
 * value). Inclusive values are not stored: they are one sweep away.
 *
 * <p>Loading appends to the tree's arrays directly and leaves its look-up indexes to be built on
 * first use, so that opening a million-node profile costs array fills, not hash probes.
 */
public final class TreeCodec {
    private TreeCodec() {}

    public static byte[] encode(CallingContextTree tree) {
        NodeTable nodes = tree.nodeTable();
        ValueTable values = tree.valueTable();
        ByteSink out = new ByteSink();
        out.varint(nodes.size());
        for (int node = 1; node < nodes.size(); node++) {
            out.varint(node - nodes.parent(node));
            out.varint(nodes.frame(node));
        }
        out.varint(values.slotCount());
        int previous = 0;
        for (int slot = 0; slot < values.slotCount(); slot++) {
            out.zigzag(values.slotNode(slot) - (long) previous);
            out.varint(values.slotThread(slot));
            previous = values.slotNode(slot);
        }
        int metrics = tree.metrics().size();
        out.varint(metrics);
        for (int metric = 0; metric < metrics; metric++) {
            ByteSink column = new ByteSink();
            long[] pairs = {0};
            int[] last = {0};
            values.forEachNonZeroSlot(metric, (slot, value) -> {
                column.zigzag(slot - (long) last[0]);
                column.zigzag(value);
                last[0] = slot;
                pairs[0]++;
            });
            out.varint(pairs[0]);
            out.append(column);
        }
        return out.toByteArray();
    }

    /**
     * A tree over {@code frames} and {@code metrics} (as decoded from the same profile). Every id
     * is checked; a repeated (parent, frame) pair or (node, thread) slot, which only a forged file
     * has, is kept as it is (checking would cost a hash probe per node): nothing fails on it, but
     * a look-up by path ({@code find}) then reaches only one of the repeated nodes.
     */
    public static CallingContextTree decode(byte[] payload, FrameTable frames, MetricRegistry metrics) {
        ByteSource in = new ByteSource(payload);
        int size = in.count(0, "nodes");
        if (size < 1) throw new BadSectionException(0, "a tree has at least its root");
        if ((long) (size - 1) * 2 > payload.length)
            throw new BadSectionException(0, size + " nodes cannot fit in " + payload.length + " bytes");
        CallingContextTree tree = new CallingContextTree(frames, metrics);
        NodeTable nodes = tree.nodeTable();
        nodes.ensureCapacity(size);
        long lastFrame = frames.size() - 1L;
        for (int node = 1; node < size; node++) {
            int distance = in.bounded(node, "parent distance");
            if (distance == 0) throw in.fail("node " + node + " is its own parent");
            nodes.appendLoaded(node - distance, in.bounded(lastFrame, "frame id"));
        }
        ValueTable values = tree.valueTable();
        int slots = in.count(2, "value slots");
        values.ensureSlots(slots);
        long node = 0;
        for (int slot = 0; slot < slots; slot++) {
            int at = in.position();
            node += in.zigzag();
            int thread = in.bounded(CallingContextTree.MAX_THREAD, "thread");
            if (node < 0 || node >= size)
                throw new BadSectionException(at, "value slot for node " + node + " of " + size);
            values.appendLoaded((int) node, thread);
        }
        int metricCount = in.bounded(metrics.size(), "metric count");
        for (int metric = 0; metric < metricCount; metric++) column(in, values, metric, slots);
        in.end("tree");
        tree.invalidate();
        return tree;
    }

    private static void column(ByteSource in, ValueTable values, int metric, int slots) {
        int pairs = in.count(2, "values");
        if (pairs > 0) values.reserve(metric, pairs);
        long slot = 0;
        for (int i = 0; i < pairs; i++) {
            int at = in.position();
            slot += in.zigzag();
            long value = in.zigzag();
            if (slot < 0 || slot >= slots) throw new BadSectionException(at, "value in slot " + slot + " of " + slots);
            if (value == 0) throw new BadSectionException(at, "a stored value is zero");
            values.add((int) slot, metric, value);
        }
    }
}
