package org.ompprof.calltree;

/**
 * Each node's position in a depth-first pre-order and the last position of its subtree, so
 * "is a below n" is {@code enter[n] <= enter[a] <= last[n]}: one comparison instead of a walk
 * up the tree, which makes a node's per-thread inclusive values one pass over the values.
 */
record PreorderIntervals(int[] enter, int[] last) {
    static PreorderIntervals of(NodeTable nodes) {
        int n = nodes.size();
        int[] enter = new int[n];
        int[] last = new int[n];
        int[] stack = new int[n];
        int top = 0;
        int counter = 0;
        stack[0] = NodeTable.ROOT;
        while (top >= 0) {
            int node = stack[top--];
            enter[node] = counter++;
            for (int c = nodes.firstChild(node); c >= 0; c = nodes.nextSibling(c)) stack[++top] = c;
        }
        // descendants have larger ids: a descending sweep finishes every subtree before its root
        for (int node = n - 1; node >= 0; node--) {
            last[node] = Math.max(last[node], enter[node]);
            if (node > 0) last[nodes.parent(node)] = Math.max(last[nodes.parent(node)], last[node]);
        }
        return new PreorderIntervals(enter, last);
    }

    boolean contains(int ancestor, int node) {
        int e = enter[node];
        return enter[ancestor] <= e && e <= last[ancestor];
    }
}
