package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Time per thread in each parallel region, by what the thread was doing: the table ompP
 * users read, from samples. A region is a construct in a calling context: the tree node of the
 * context that opened it and the construct's call site ({@link Region}); all its instances are
 * summed.
 *
 * @param rows one per (region, thread) that has samples
 */
public record RegionTable(List<Row> rows) {
    /** What a thread's time in a region is split into. */
    public enum Column {
        WORK,
        BARRIER,
        MUTEX,
        IDLE,
        OTHER
    }

    /**
     * One region: two constructs in one function share the function's node and differ in their call site's line.
     *
     * @param node the tree node of the context that opened it
     * @param file its call site's file, null if unknown (regions without one are one region per context)
     * @param line its call site's line, 0 if unknown
     */
    public record Region(int node, String file, int line) {}

    /**
     * @param regionNode the tree node of the context that opened the region
     * @param instances how many times that context opened the region (sampled or not)
     * @param callSiteLine source line of the construct, 0 if unknown
     * @param ns time per {@link Column}
     * @param bodyNodes the nodes right under {@code regionNode} that the region's samples lie under, increasing:
     *     its outlined body, or the calls a body that tail-called the runtime made; empty if none is known
     */
    public record Row(
            int regionNode,
            int instances,
            String callSiteFile,
            int callSiteLine,
            int thread,
            long[] ns,
            int[] bodyNodes) {
        public Row {
            if (ns.length != Column.values().length) throw new IllegalArgumentException("one value per column");
            ns = ns.clone();
            bodyNodes = bodyNodes.clone();
        }

        /** A row of a region whose body is not known. */
        public Row(int regionNode, int instances, String callSiteFile, int callSiteLine, int thread, long[] ns) {
            this(regionNode, instances, callSiteFile, callSiteLine, thread, ns, new int[0]);
        }

        public Region region() {
            return new Region(regionNode, callSiteFile, callSiteLine);
        }

        public long ns(Column c) {
            return ns[c.ordinal()];
        }

        public long totalNs() {
            long t = 0;
            for (long v : ns) t += v;
            return t;
        }
    }

    public RegionTable {
        rows = List.copyOf(rows);
    }

    /** The rows of each region, in the table's order. */
    public Map<Region, List<Row>> byRegion() {
        Map<Region, List<Row>> by = new LinkedHashMap<>();
        for (Row r : rows)
            by.computeIfAbsent(r.region(), k -> new ArrayList<>()).add(r);
        return by;
    }

    /** The nodes of a region's body, from all its rows, increasing (see {@link Row#bodyNodes}). */
    public static int[] bodyNodes(List<Row> regionRows) {
        return regionRows.stream()
                .flatMapToInt(r -> java.util.Arrays.stream(r.bodyNodes))
                .distinct()
                .sorted()
                .toArray();
    }

    /** The rows in another tree (node n becomes {@code nodeMap[n]}), threads moved up by {@code threadOffset}. */
    public RegionTable remapped(int[] nodeMap, int threadOffset) {
        return new RegionTable(rows.stream()
                .map(r -> new Row(
                        nodeMap[r.regionNode()],
                        r.instances(),
                        r.callSiteFile(),
                        r.callSiteLine(),
                        r.thread() + threadOffset,
                        r.ns,
                        java.util.Arrays.stream(r.bodyNodes)
                                .map(n -> nodeMap[n])
                                .distinct()
                                .sorted()
                                .toArray()))
                .toList());
    }
}
