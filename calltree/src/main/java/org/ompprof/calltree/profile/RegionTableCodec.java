package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.recording.RecordingFormat;

/**
 * The REGIONS section: per row the region's node, instances, call site (file, line), thread and one time per column;
 * then (format 4 on) per row its body nodes: a count, then each as a delta from the one before.
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
        for (RegionTable.Row r : t.rows()) {
            out.varint(r.bodyNodes().length);
            int last = 0;
            for (int node : r.bodyNodes()) {
                out.varint(node - last);
                last = node;
            }
        }
        return out.toByteArray();
    }

    /** As {@link #decode(byte[], int, int)} for a profile of this version. */
    public static RegionTable decode(byte[] payload, int nodes) {
        return decode(payload, nodes, RecordingFormat.VERSION);
    }

    /**
     * @param nodes the tree's size: every region node must be below it
     * @param formatVersion the profile's: its rows have bodies from version 4 on
     */
    public static RegionTable decode(byte[] payload, int nodes, int formatVersion) {
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
        if (formatVersion >= 4) {
            for (int i = 0; i < n; i++) rows.set(i, withBody(rows.get(i), in, nodes));
        }
        in.end("region table");
        return new RegionTable(rows);
    }

    private static RegionTable.Row withBody(RegionTable.Row r, ByteSource in, int nodes) {
        int[] body = new int[in.count(1, "region body nodes")];
        for (int k = 0, last = 0; k < body.length; k++) {
            body[k] = last + in.bounded(nodes - 1L - last, "region body node");
            if (k > 0 && body[k] == last) throw in.fail("region body nodes repeat");
            last = body[k];
        }
        return new RegionTable.Row(
                r.regionNode(), r.instances(), r.callSiteFile(), r.callSiteLine(), r.thread(), r.ns(), body);
    }
}
