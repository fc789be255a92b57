package org.ompprof.calltree.views;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;

/**
 * The flat view: one row per frame (function, or placeholder) with its exclusive and inclusive
 * value of a metric over all threads. Inclusive counts each path once: a recursive function's
 * inner activations are inside its outer one, so only the outermost occurrence on a path adds.
 */
public final class FlatProfile {
    /** One function's totals. */
    public record Row(int frameId, Frame frame, long exclusive, long inclusive) {}

    private FlatProfile() {}

    /** Rows by inclusive value, largest first. */
    public static List<Row> of(CallingContextTree tree, int metric) {
        long[] inclusive = tree.inclusiveByNode(metric);
        IntLongHashMap exclusiveByFrame = new IntLongHashMap(), inclusiveByFrame = new IntLongHashMap();
        tree.forEachExclusive(metric, (node, thread, value) -> exclusiveByFrame.addToValue(tree.frame(node), value));
        for (int node = 1; node < tree.size(); node++) {
            if (inclusive[node] != 0 && !hasAncestorWithFrame(tree, node))
                inclusiveByFrame.addToValue(tree.frame(node), inclusive[node]);
        }
        List<Row> rows = new ArrayList<>();
        inclusiveByFrame.forEachKeyValue(
                (frame, inc) -> rows.add(new Row(frame, tree.frames().frame(frame), exclusiveByFrame.get(frame), inc)));
        exclusiveByFrame.forEachKeyValue((frame, exc) -> {
            if (!inclusiveByFrame.containsKey(frame))
                rows.add(new Row(frame, tree.frames().frame(frame), exc, 0));
        });
        rows.sort(Comparator.comparingLong((Row r) -> -r.inclusive()).thenComparingInt(Row::frameId));
        return rows;
    }

    private static boolean hasAncestorWithFrame(CallingContextTree tree, int node) {
        int frame = tree.frame(node);
        for (int n = tree.parent(node); n != CallingContextTree.ROOT; n = tree.parent(n))
            if (tree.frame(n) == frame) return true;
        return false;
    }
}
