package org.ompprof.calltree.views;

import java.util.Arrays;
import org.ompprof.calltree.CallingContextTree;

/**
 * The callers view: a tree whose roots are the functions where time was spent and whose
 * children are their callers, outward to {@code main}. Each context's exclusive values are
 * added along its own reversed path, so a caller's value under a function is exactly the time
 * that function spent when called from that call chain: per call site, never the function's
 * total spread over all its callers (the hpcviewer complaint). Recursion keeps each
 * activation's own chain. Built once; the result is an ordinary tree sharing the frame table
 * and the metrics, so every query and export works on it.
 */
public final class BottomUp {
    private BottomUp() {}

    public static CallingContextTree of(CallingContextTree topDown) {
        CallingContextTree out = new CallingContextTree(topDown.frames(), topDown.metrics());
        int[] mapped = new int[topDown.size()];
        Arrays.fill(mapped, -1);
        for (int metric = 0; metric < topDown.metrics().size(); metric++) {
            int m = metric;
            topDown.forEachExclusive(
                    metric, (node, thread, value) -> out.add(node(topDown, out, mapped, node), thread, m, value));
        }
        return out;
    }

    /**
     * The heaviest top-down context a bottom-up row stands for: among the contexts whose frame is
     * the row's function and whose callers, outward, are the row's, the one with the most of
     * {@code metric} (inclusive); -1 if none (or for ROOT).
     */
    public static int heaviestContext(CallingContextTree topDown, CallingContextTree bottomUp, int row, int metric) {
        if (row <= 0) return -1;
        int[] chain = bottomUp.framePath(row); // the function first, then its callers outward
        int best = -1;
        long bestValue = -1;
        for (int n = 1; n < topDown.size(); n++) {
            if (topDown.frame(n) != chain[0] || !callersMatch(topDown, n, chain)) continue;
            long v = topDown.inclusive(n, metric);
            if (v > bestValue) {
                best = n;
                bestValue = v;
            }
        }
        return best;
    }

    private static boolean callersMatch(CallingContextTree topDown, int node, int[] chain) {
        int n = node;
        for (int i = 1; i < chain.length; i++) {
            n = topDown.parent(n);
            if (n <= 0 || topDown.frame(n) != chain[i]) return false;
        }
        return true;
    }

    /** The bottom-up node of a top-down node: its frames from itself outward. */
    private static int node(CallingContextTree topDown, CallingContextTree out, int[] mapped, int node) {
        if (node == CallingContextTree.ROOT) return CallingContextTree.ROOT;
        if (mapped[node] >= 0) return mapped[node];
        int[] path = topDown.pathToRoot(node); // node first: the bottom-up path, root (the function) first
        int[] frames = new int[path.length];
        for (int i = 0; i < path.length; i++) frames[i] = topDown.frame(path[i]);
        return mapped[node] = out.path(frames);
    }
}
