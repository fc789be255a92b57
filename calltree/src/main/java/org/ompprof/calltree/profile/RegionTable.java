package org.ompprof.calltree.profile;

import java.util.List;

/**
 * Time per thread in each parallel region, by what the thread was doing: the table ompP
 * users read, from samples. A region is identified by the tree node of the context that opened
 * it; all its instances are summed.
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
     * @param regionNode the tree node of the context that opened the region
     * @param instances how many times that context opened a region
     * @param callSiteLine source line of the construct, 0 if unknown
     * @param ns time per {@link Column}
     */
    public record Row(int regionNode, int instances, String callSiteFile, int callSiteLine, int thread, long[] ns) {
        public Row {
            if (ns.length != Column.values().length) throw new IllegalArgumentException("one value per column");
            ns = ns.clone();
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

    /** The rows in another tree (node n becomes {@code nodeMap[n]}), threads moved up by {@code threadOffset}. */
    public RegionTable remapped(int[] nodeMap, int threadOffset) {
        return new RegionTable(rows.stream()
                .map(r -> new Row(
                        nodeMap[r.regionNode()],
                        r.instances(),
                        r.callSiteFile(),
                        r.callSiteLine(),
                        r.thread() + threadOffset,
                        r.ns))
                .toList());
    }
}
