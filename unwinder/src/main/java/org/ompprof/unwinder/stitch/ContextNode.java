package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.List;

/**
 * A calling context shared by many samples: the context of a parallel region or explicit
 * task, as a parent context plus the frames the creating task added (root first). Nested
 * regions and tasks form a tree of these, so a context is stored once however many regions,
 * tasks and samples share it.
 *
 * @param segment the frames the creating task added (interned: the same instance for the same frames)
 * @param depth the frames of the whole path
 * @param gap the worst thing missing from this context or an ancestor
 */
record ContextNode(ContextNode parent, Segment segment, int depth, Gap gap) {
    static final ContextNode ROOT = new ContextNode(null, new Segment(List.of(), Gap.NONE), 0, Gap.NONE);
    static final ContextNode UNKNOWN = new ContextNode(null, Segment.UNKNOWN, 1, Gap.UNKNOWN);

    static ContextNode child(ContextNode parent, Segment segment) {
        return new ContextNode(
                parent, segment, parent.depth + segment.frames().size(), parent.gap.worst(segment.gap()));
    }

    /** The frames this node's creating task added, root first. */
    List<PathFrame> frames() {
        return segment.frames();
    }

    /** Root first, this node's frames last. */
    List<PathFrame> path() {
        List<PathFrame> out = new ArrayList<>(depth);
        appendTo(out);
        return out;
    }

    /** Iterative: task chains can be as deep as the program's task recursion. */
    void appendTo(List<PathFrame> out) {
        ContextNode[] chain = new ContextNode[16];
        int n = 0;
        for (ContextNode c = this; c != null; c = c.parent) {
            if (n == chain.length) chain = java.util.Arrays.copyOf(chain, 2 * n);
            chain[n++] = c;
        }
        for (int i = n - 1; i >= 0; i--) out.addAll(chain[i].segment.frames());
    }

    boolean isKnown() {
        return gap != Gap.UNKNOWN;
    }

    // Identity semantics: nodes are interned, and structural equality would walk whole chains.
    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
