package org.ompprof.unwinder.stitch;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps one instance of each distinct segment and context. Programs create millions of
 * tasks from a handful of call sites; with interning they cost a map entry each, not a path.
 */
final class Interner {
    /** By identity: parents are interned nodes and segments interned segments, so this is exact and O(1). */
    private record NodeKey(ContextNode parent, Segment segment) {
        @Override
        public boolean equals(Object o) {
            return o instanceof NodeKey k && k.parent == parent && k.segment == segment;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(parent) + System.identityHashCode(segment);
        }
    }

    private final Map<Segment, Segment> segments = new HashMap<>();
    private final Map<NodeKey, ContextNode> nodes = new HashMap<>();
    private long folded;

    Segment segment(Segment s) {
        Segment old = segments.putIfAbsent(s, s);
        return old != null ? old : s;
    }

    /** @param segment an interned segment (from {@link #segment}) or {@link Segment#UNKNOWN} */
    ContextNode child(ContextNode parent, Segment segment) {
        NodeKey key = new NodeKey(parent, segment);
        ContextNode child = nodes.get(key);
        if (child != null) return child;
        ContextNode fold = RecursionFold.of(parent, segment);
        if (fold != null) {
            folded++;
            return fold;
        }
        child = ContextNode.child(parent, segment);
        nodes.put(key, child);
        return child;
    }

    /** Creations whose context was folded onto an ancestor's ({@link RecursionFold}). */
    long folded() {
        return folded;
    }

    int distinctSegments() {
        return segments.size();
    }

    int distinctContexts() {
        return nodes.size();
    }
}
