package org.ompprof.calltree.export;

import java.io.IOException;
import java.util.Arrays;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.ompprof.calltree.CallingContextTree;

/**
 * A tree's projection onto labels: nodes whose paths read the same are merged and their values
 * summed, so each output line or flame-graph frame stands for one distinct path. Walked
 * depth-first with children in label order, which makes the output deterministic, and
 * without recursion, which deep recursive programs would overflow.
 */
final class LabelTree {
    private final int[] parent;
    private final int[] label;
    private final long[] self;
    private final int[] rank;
    /** Children of node n are childList[childStart[n] .. childStart[n + 1]), in label order. */
    private final int[] childStart;

    private final int[] childList;

    private LabelTree(int[] parent, int[] label, long[] self, int[] rank, int[] childStart, int[] childList) {
        this.parent = parent;
        this.label = label;
        this.self = self;
        this.rank = rank;
        this.childStart = childStart;
        this.childList = childList;
    }

    /** Receives the walk: each node on entry, with its label and its own value; exits in reverse. */
    interface Visitor {
        void enter(int label, long self) throws IOException;

        void exit() throws IOException;
    }

    /** @param exclusive value per tree node (index = node id) */
    static LabelTree project(CallingContextTree tree, FrameLabels labels, long[] exclusive) {
        LongIntHashMap childOf = new LongIntHashMap();
        IntArrayList parent = new IntArrayList();
        IntArrayList label = new IntArrayList();
        int[] map = new int[tree.size()];
        parent.add(-1);
        label.add(-1);
        for (int node = 1; node < map.length; node++) {
            int p = map[tree.parent(node)];
            int l = labels.ofFrame()[tree.frame(node)];
            int id = childOf.getIfAbsentPut((long) p << 32 | l, parent.size());
            if (id == parent.size()) {
                parent.add(p);
                label.add(l);
            }
            map[node] = id;
        }
        long[] self = new long[parent.size()];
        for (int node = 0; node < map.length; node++) self[map[node]] += exclusive[node];
        return withChildren(parent.toArray(), label.toArray(), self, labels.rank());
    }

    /** Keeps only children whose subtree has a value, sorted by label rank. */
    private static LabelTree withChildren(int[] parent, int[] label, long[] self, int[] rank) {
        boolean[] live = liveNodes(parent, self);
        int n = parent.length;
        int[] start = new int[n + 1];
        for (int node = 1; node < n; node++) if (live[node]) start[parent[node] + 1]++;
        for (int i = 0; i < n; i++) start[i + 1] += start[i];
        long[] keyed = new long[start[n]];
        int[] fill = Arrays.copyOf(start, n);
        for (int node = 1; node < n; node++) {
            if (live[node]) keyed[fill[parent[node]]++] = (long) rank[label[node]] << 32 | node;
        }
        int[] list = new int[keyed.length];
        for (int p = 0; p < n; p++) {
            Arrays.sort(keyed, start[p], start[p + 1]);
            for (int i = start[p]; i < start[p + 1]; i++) list[i] = (int) keyed[i];
        }
        return new LabelTree(parent, label, self, rank, start, list);
    }

    /** Nodes with a non-zero value in their subtree; children have larger ids than parents. */
    private static boolean[] liveNodes(int[] parent, long[] self) {
        boolean[] live = new boolean[parent.length];
        for (int node = parent.length - 1; node > 0; node--) {
            if (self[node] != 0) live[node] = true;
            if (live[node]) live[parent[node]] = true;
        }
        return live;
    }

    /**
     * What a flame graph can draw: negative values dropped, and subtrees smaller than
     * {@code minPercent} of the total folded into their parent's own value. The converter
     * would hide such frames anyway (leaving the same gap in the parent); not handing them to
     * it saves building them, which is most of the work for million-node trees.
     */
    LabelTree drawable(double minPercent) {
        long[] own = new long[self.length];
        for (int n = 0; n < own.length; n++) own[n] = Math.max(0, self[n]);
        long[] inclusive = own.clone();
        for (int n = inclusive.length - 1; n > 0; n--) inclusive[parent[n]] += inclusive[n];
        long min = (long) (inclusive[0] * minPercent / 100);
        boolean[] folded = new boolean[own.length];
        // ascending ids meet parents before children
        for (int n = 1; n < own.length; n++) {
            if (folded[parent[n]]) {
                folded[n] = true;
            } else if (inclusive[n] < min) {
                folded[n] = true;
                own[parent[n]] += inclusive[n];
            }
            if (folded[n]) own[n] = 0;
        }
        return withChildren(parent, label, own, rank);
    }

    /** The value of the tree's root itself (recorded with an empty path). */
    long rootSelf() {
        return self[0];
    }

    void walk(Visitor visitor) throws IOException {
        int[] stackNode = new int[64];
        int[] stackNext = new int[64];
        int top = 0;
        stackNext[0] = childStart[0];
        while (top >= 0) {
            int node = stackNode[top];
            if (stackNext[top] == childStart[node + 1]) {
                if (top-- > 0) visitor.exit();
                continue;
            }
            int child = childList[stackNext[top]++];
            if (++top == stackNode.length) {
                stackNode = Arrays.copyOf(stackNode, top * 2);
                stackNext = Arrays.copyOf(stackNext, top * 2);
            }
            stackNode[top] = child;
            stackNext[top] = childStart[child];
            visitor.enter(label[child], self[child]);
        }
    }
}
