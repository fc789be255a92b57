package org.ompprof.calltree;

import java.util.Arrays;

/**
 * The nodes of the last path looked up. Consecutive samples mostly share a long prefix (the
 * same thread in the same loop, or workers under the same parallel region), and comparing
 * frame ids with the last path costs far less than one hash probe per frame into a table of a
 * million nodes. Node ids never change once given, so the cache stays valid as the tree grows.
 */
final class PathCache {
    private int[] frames = new int[64];
    private int[] nodes = new int[64];
    private int length;

    /** The node of {@code path[0..length)}, outermost first. */
    int rootFirst(NodeTable table, int[] path, int length) {
        ensureCapacity(length);
        int shared = 0;
        int max = Math.min(length, this.length);
        while (shared < max && frames[shared] == path[shared]) shared++;
        int node = shared == 0 ? NodeTable.ROOT : nodes[shared - 1];
        this.length = shared; // stays true if a bad frame id throws below
        for (int i = shared; i < length; i++) {
            node = table.child(node, path[i]);
            frames[i] = path[i];
            nodes[i] = node;
        }
        this.length = length;
        return node;
    }

    /** As {@link #rootFirst} for {@code path[0..length)} innermost first. */
    int leafFirst(NodeTable table, int[] path, int length) {
        ensureCapacity(length);
        int shared = 0;
        int max = Math.min(length, this.length);
        while (shared < max && frames[shared] == path[length - 1 - shared]) shared++;
        int node = shared == 0 ? NodeTable.ROOT : nodes[shared - 1];
        this.length = shared;
        for (int i = shared; i < length; i++) {
            int frame = path[length - 1 - i];
            node = table.child(node, frame);
            frames[i] = frame;
            nodes[i] = node;
        }
        this.length = length;
        return node;
    }

    private void ensureCapacity(int length) {
        if (length > frames.length) {
            frames = Arrays.copyOf(frames, Math.max(length, frames.length * 2));
            nodes = Arrays.copyOf(nodes, frames.length);
        }
    }
}
