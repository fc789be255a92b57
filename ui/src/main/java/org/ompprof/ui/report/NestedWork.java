package org.ompprof.ui.report;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.profile.RegionTable;

/**
 * A region's work with the work of the regions nested in it: a thread that runs a nested region (inactive, on that
 * thread alone, as TeaLeaf's kernels inside its solver's region) works in the outer one all that time, but the table
 * counts each sample in its innermost region only. Without it the outer region read as empty ("4 us of work each: too
 * small; run it serially") around milliseconds of its kernels' work, and its imbalance was that of its few samples
 * of its own.
 */
final class NestedWork {
    private NestedWork() {}

    /** The rows with each thread's WORK made the region's own plus that of every region inside its body. */
    static Map<RegionTable.Region, List<RegionTable.Row>> folded(
            CallingContextTree tree, Map<RegionTable.Region, List<RegionTable.Row>> regions) {
        Map<RegionTable.Region, List<RegionTable.Row>> out = new LinkedHashMap<>();
        regions.forEach((region, rows) -> {
            Map<Integer, Long> nested = nestedWorkByThread(tree, region, rows, regions);
            out.put(
                    region,
                    nested.isEmpty()
                            ? rows
                            : rows.stream().map(r -> plus(r, nested)).toList());
        });
        return out;
    }

    private static Map<Integer, Long> nestedWorkByThread(
            CallingContextTree tree,
            RegionTable.Region region,
            List<RegionTable.Row> rows,
            Map<RegionTable.Region, List<RegionTable.Row>> regions) {
        Set<Integer> body = new HashSet<>();
        for (int b : RegionTable.bodyNodes(rows)) body.add(b);
        String site = Names.site(region.file(), region.line());
        Map<Integer, Long> work = new HashMap<>();
        regions.forEach((other, otherRows) -> {
            if (other.equals(region) || !inside(tree, other.node(), region.node(), body, site)) return;
            for (RegionTable.Row r : otherRows) work.merge(r.thread(), r.ns(RegionTable.Column.WORK), Long::sum);
        });
        return work;
    }

    /**
     * Whether {@code node} lies in the region opened at {@code opener}: under one of its body's nodes, or under the
     * construct named for its call site (a region whose threads all worked in a nested one has no samples of its own
     * to know its body by).
     */
    private static boolean inside(CallingContextTree tree, int node, int opener, Set<Integer> body, String site) {
        for (int n = node; n > 0; n = tree.parent(n)) {
            if (body.contains(n)) return true;
            if (tree.parent(n) != opener) continue;
            Frame f = tree.frameOf(n);
            return site != null && Names.isConstruct(f) && f.name().endsWith(" at " + site);
        }
        return false;
    }

    private static RegionTable.Row plus(RegionTable.Row r, Map<Integer, Long> nested) {
        long[] ns = new long[RegionTable.Column.values().length];
        for (RegionTable.Column c : RegionTable.Column.values()) ns[c.ordinal()] = r.ns(c);
        ns[RegionTable.Column.WORK.ordinal()] += nested.getOrDefault(r.thread(), 0L);
        return new RegionTable.Row(
                r.regionNode(), r.instances(), r.callSiteFile(), r.callSiteLine(), r.thread(), ns, r.bodyNodes());
    }
}
