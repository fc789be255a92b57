package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * The REGIONS section: per row the region's node, instances, call site (file, line), thread and one time per column.
 */
public final class RegionTableCodec {
    private static final int COLUMNS = RegionTable.Column.values().length;

    private RegionTableCodec() {}

    public static byte[] encode(RegionTable t) {
        ByteSink out = new ByteSink();
        out.varint(t.rows().size());
        for (RegionTable.Row r : t.rows()) {
            out.varint(r.regionNode());
            out.varint(r.instances());
            out.string(r.callSiteFile() == null ? "" : r.callSiteFile());
            out.varint(r.callSiteLine());
            out.varint(r.thread());
            for (RegionTable.Column c : RegionTable.Column.values()) out.varint(r.ns(c));
        }
        return out.toByteArray();
    }

    /** @param nodes the tree's size: every region node must be below it */
    public static RegionTable decode(byte[] payload, int nodes) {
        ByteSource in = new ByteSource(payload);
        int n = in.count(5 + COLUMNS, "region rows");
        List<RegionTable.Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int node = in.bounded(nodes - 1L, "region node");
            int instances = in.bounded(Integer.MAX_VALUE, "instances");
            String file = in.string();
            int line = in.bounded(Integer.MAX_VALUE, "line");
            int thread = in.bounded(Integer.MAX_VALUE, "thread");
            long[] ns = new long[COLUMNS];
            for (int c = 0; c < COLUMNS; c++) {
                ns[c] = in.varint();
                if (ns[c] < 0) throw in.fail("negative time");
            }
            rows.add(new RegionTable.Row(node, instances, file.isEmpty() ? null : file, line, thread, ns));
        }
        in.end("region table");
        return new RegionTable(rows);
    }
}
