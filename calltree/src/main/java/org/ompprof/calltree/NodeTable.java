package org.ompprof.calltree;

import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;

/**
 * The shape of a calling-context tree: node 0 is a root without a frame, every other node is
 * one (parent, frame) pair. A node is always created after its parent, so its id is larger:
 * a descending sweep over ids visits children before parents, which is how inclusive values
 * are summed without recursion.
 */
final class NodeTable {
    static final int ROOT = 0;
    static final int NO_FRAME = -1;

    /** (parent << 32 | frame) to child: one probe finds or creates a child. */
    private LongIntHashMap childOf = new LongIntHashMap();

    private final IntArrayList parent = new IntArrayList();
    private final IntArrayList frame = new IntArrayList();
    private final IntArrayList depth = new IntArrayList();
    /** Children as singly linked lists, newest first: 8 bytes per node, O(1) insertion. */
    private final IntArrayList firstChild = new IntArrayList();

    private final IntArrayList nextSibling = new IntArrayList();

    private final FrameTable frames;

    NodeTable(FrameTable frames) {
        this.frames = frames;
        append(NO_FRAME, NO_FRAME, 0);
    }

    int size() {
        return parent.size();
    }

    /**
     * Whether {@link #childOf} holds every node; a loaded tree builds it on the first look-up,
     * since a viewer never needs it.
     */
    private boolean indexed = true;

    /** The child of {@code node} for {@code frameId}, created if absent. */
    int child(int node, int frameId) {
        if (!indexed) index();
        int next = parent.size();
        int id = childOf.getIfAbsentPut(key(node, frameId), next);
        if (id == next) link(node, frameId);
        return id;
    }

    /** The child of {@code node} for {@code frameId}, or -1. */
    int findChild(int node, int frameId) {
        if (!indexed) index();
        return childOf.getIfAbsent(key(node, frameId), -1);
    }

    /**
     * Appends a node from a profile file without indexing it (see {@link #indexed}); the caller
     * checks that the parent exists and the frame is in the table.
     */
    int appendLoaded(int parentId, int frameId) {
        indexed = false;
        int id = append(parentId, frameId, depth.get(parentId) + 1);
        nextSibling.set(id, firstChild.get(parentId));
        firstChild.set(parentId, id);
        return id;
    }

    /** Room for {@code n} nodes without growing. */
    void ensureCapacity(int n) {
        for (IntArrayList list : new IntArrayList[] {parent, frame, depth, firstChild, nextSibling})
            list.ensureCapacity(n);
    }

    /** A loaded file may repeat a (parent, frame) pair; the first node keeps it, as building would have. */
    private void index() {
        indexed = true;
        LongIntHashMap map = new LongIntHashMap(parent.size());
        for (int id = 1; id < parent.size(); id++) {
            long key = key(parent.get(id), frame.get(id));
            if (!map.containsKey(key)) map.put(key, id);
        }
        childOf = map;
    }

    private static long key(int node, int frameId) {
        return (long) node << 32 | (frameId & 0xFFFF_FFFFL);
    }

    private void link(int node, int frameId) {
        // checked when a node is made, not on every look-up: a bad id can only ever make a node
        if (frameId < 0 || frameId >= frames.size())
            throw new IllegalArgumentException("no frame " + frameId + " in the frame table");
        int id = append(node, frameId, depth.get(node) + 1);
        nextSibling.set(id, firstChild.get(node));
        firstChild.set(node, id);
    }

    private int append(int parentId, int frameId, int nodeDepth) {
        int id = parent.size();
        parent.add(parentId);
        frame.add(frameId);
        depth.add(nodeDepth);
        firstChild.add(-1);
        nextSibling.add(-1);
        return id;
    }

    int parent(int node) {
        return parent.get(node);
    }

    int frame(int node) {
        return frame.get(node);
    }

    int depth(int node) {
        return depth.get(node);
    }

    /** Children in creation order. */
    int[] children(int node) {
        IntArrayList out = new IntArrayList();
        for (int c = firstChild.get(node); c >= 0; c = nextSibling.get(c)) out.add(c);
        return out.reverseThis().toArray();
    }

    /** The newest child, -1 if none; with {@link #nextSibling} walks children without allocating. */
    int firstChild(int node) {
        return firstChild.get(node);
    }

    int nextSibling(int node) {
        return nextSibling.get(node);
    }

    void checkNode(int node) {
        if (node < 0 || node >= parent.size()) throw new IndexOutOfBoundsException("no node " + node);
    }

    /** A copy of the parent ids, indexed by node, for sweeps that must not pay for boxing or checks. */
    int[] parents() {
        return parent.toArray();
    }
}
