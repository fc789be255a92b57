package org.ompprof.calltree.merge;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.MetricRegistry;

/**
 * A differential profile: the union of two trees' paths with, per context and thread, each
 * metric's value in the new profile B under its own name (so every view of a profile shows B),
 * its value in the base profile A under {@code a.NAME}, and B minus A under
 * {@code delta.NAME}. Thread t of A is compared with thread t of B: in an OpenMP program the
 * same number is the same role (the initial thread, worker k) from run to run.
 */
public final class ProfileDiff {
    public static final String BASE = "a.";
    public static final String DELTA = "delta.";

    /** @param nodeMapOfB the diff's node for each node of B, to carry B's timelines and tables across */
    public record Result(CallingContextTree tree, int[] nodeMapOfB) {}

    private ProfileDiff() {}

    public static Result of(CallingContextTree a, CallingContextTree b) {
        CallingContextTree out = CallingContextTree.create();
        MetricRegistry registry = out.metrics();
        registry.importAll(b.metrics());
        registry.importAll(a.metrics());
        for (Metric m : registry.all()) {
            registry.register(BASE + m.name(), m.unit(), m.name() + " in the base profile (A)", m.storage(), null);
            registry.register(
                    DELTA + m.name(), m.unit(), m.name() + ", new profile minus base (B - A)", m.storage(), null);
        }
        int[] mapB = out.addAll(b);
        int[] mapA = out.addPaths(a);
        carry(b, mapB, out, false);
        carry(a, mapA, out, true);
        return new Result(out, mapB);
    }

    /** B's values go to delta.NAME (NAME has them already); A's to a.NAME and, negated, to delta.NAME. */
    private static void carry(CallingContextTree source, int[] nodeMap, CallingContextTree out, boolean base) {
        for (Metric m : source.metrics().all()) {
            int delta = out.metrics().require(DELTA + m.name()).index();
            int before = out.metrics().require(BASE + m.name()).index();
            source.forEachExclusive(m.index(), (node, thread, value) -> {
                if (base) out.add(nodeMap[node], thread, before, value);
                out.add(nodeMap[node], thread, delta, base ? -value : value);
            });
        }
    }
}
