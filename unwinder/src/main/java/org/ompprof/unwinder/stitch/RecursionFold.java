package org.ompprof.unwinder.stitch;

/**
 * Folds the contexts of deep task recursion. A task's context is its creator's plus the frames the creator added, so a
 * program whose tasks create tasks recursively without end (a graph search spawning a task per visited node: BOTS
 * concom nests 140,000 levels, 420,000 frames) gives every sample a path as deep as the recursion, and a profile whose
 * build and exports grow with depth times samples. Beyond {@link #FROM_FRAMES} frames, a creation whose context ends in
 * a repeat (the last p creations' segments, p up to {@link #MAX_PERIOD}, equal to the p before them, as stack-collapse
 * tools fold recursion) stands for the context one repeat up: deeper levels add nothing new to the path. Shallower
 * contexts, where a profile's reader follows the recursion level by level, stay exact. A chain that never repeats is
 * cut at {@link #CUT_FRAMES}: deeper creations share the context there.
 */
public final class RecursionFold {
    /** Paths up to this deep are never folded. */
    public static final int FROM_FRAMES = 512;

    /** The longest repeat looked for, in creations. */
    static final int MAX_PERIOD = 8;

    /** Ancestors this deep take no further segments. */
    static final int CUT_FRAMES = 8192;

    private RecursionFold() {}

    /**
     * The context that stands for {@code parent}'s child created with {@code segment} (interned), when the child would
     * be deeper than {@link #FROM_FRAMES} and end in a repeat (one of its ancestors), or when {@code parent} is as deep
     * as {@link #CUT_FRAMES} ({@code parent}); null when the child is its own.
     */
    static ContextNode of(ContextNode parent, Segment segment) {
        if (parent.depth() + segment.frames().size() <= FROM_FRAMES) return null;
        ContextNode[] up = new ContextNode[2 * MAX_PERIOD - 1]; // up[i]: the ancestor i creations above the parent
        int n = 0;
        for (ContextNode c = parent; c != null && c.parent() != null && n < up.length; c = c.parent()) up[n++] = c;
        for (int p = 1; p <= MAX_PERIOD && 2 * p - 1 <= n; p++) {
            if (repeats(up, p, segment)) return up[p - 1];
        }
        return parent.depth() >= CUT_FRAMES ? parent : null;
    }

    /** Whether the child's last p segments (its own and p - 1 ancestors') equal the p before them. */
    private static boolean repeats(ContextNode[] up, int p, Segment segment) {
        if (up[p - 1].segment() != segment) return false;
        for (int j = 0; j < p - 1; j++) if (up[j].segment() != up[j + p].segment()) return false;
        return true;
    }
}
