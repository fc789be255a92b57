package org.ompprof.ui.view;

import java.util.Arrays;
import java.util.Comparator;
import org.eclipse.collections.impl.list.mutable.primitive.DoubleArrayList;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.ompprof.calltree.CallingContextTree;

/**
 * Where each frame of a flame graph goes: for a focus context, its ancestors full width on top
 * (depth 0 is the outermost) and its subtree below, each child as wide as its share of its
 * parent's inclusive value, children by name so the picture is stable. Frames narrower than
 * {@code minWidth} are left out with everything under them, so the cost follows the pixels
 * drawn, not the size of the tree.
 */
final class FlameLayout {
    final IntArrayList node = new IntArrayList();
    final IntArrayList depth = new IntArrayList();
    final DoubleArrayList x = new DoubleArrayList();
    final DoubleArrayList width = new DoubleArrayList();
    int maxDepth;

    private FlameLayout() {}

    /**
     * @param inclusive inclusive value per node of the metric that weighs the frames
     * @param focus the context whose subtree fills the width (ROOT for everything)
     */
    static FlameLayout of(CallingContextTree tree, long[] inclusive, int focus, double totalWidth, double minWidth) {
        FlameLayout l = new FlameLayout();
        int[] ancestors = tree.pathToRoot(focus); // focus first
        for (int i = ancestors.length - 1; i >= 1; i--) l.add(ancestors[i], ancestors.length - 1 - i, 0, totalWidth);
        int base = Math.max(0, ancestors.length - 1);
        long whole = inclusive[focus];
        if (whole <= 0) return l;
        Comparator<Integer> byName = Comparator.comparing(n -> tree.frameOf(n).name());
        int[] stack = {focus};
        double[] xs = {0};
        int top = 1;
        int[] depths = {focus == CallingContextTree.ROOT ? -1 : base};
        while (top > 0) {
            top--;
            int n = stack[top];
            double nx = xs[top];
            int d = depths[top];
            double w = totalWidth * inclusive[n] / whole;
            if (n != CallingContextTree.ROOT) l.add(n, d, nx, w);
            Integer[] kids = Arrays.stream(tree.children(n))
                    .filter(c -> inclusive[c] > 0 && totalWidth * inclusive[c] / whole >= minWidth)
                    .boxed()
                    .sorted(byName)
                    .toArray(Integer[]::new);
            double cx = nx;
            if (top + kids.length > stack.length) {
                int size = Math.max(stack.length * 2, top + kids.length);
                stack = Arrays.copyOf(stack, size);
                xs = Arrays.copyOf(xs, size);
                depths = Arrays.copyOf(depths, size);
            }
            for (Integer c : kids) {
                stack[top] = c;
                xs[top] = cx;
                depths[top] = d + 1;
                top++;
                cx += totalWidth * inclusive[c] / whole;
            }
        }
        return l;
    }

    private void add(int n, int d, double fx, double w) {
        node.add(n);
        depth.add(d);
        x.add(fx);
        width.add(w);
        maxDepth = Math.max(maxDepth, d);
    }

    int size() {
        return node.size();
    }

    /** The frame drawn at (px, row), or -1. */
    int at(double px, int row) {
        for (int i = 0; i < size(); i++) {
            if (depth.get(i) == row && px >= x.get(i) && px < x.get(i) + width.get(i)) return node.get(i);
        }
        return -1;
    }
}
