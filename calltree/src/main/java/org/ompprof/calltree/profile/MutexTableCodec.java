package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;

/** The MUTEXES section: per row name, metric, site file ("" for none), line, waiting, top node + 1, its share. */
public final class MutexTableCodec {
    private MutexTableCodec() {}

    public static byte[] encode(MutexTable t) {
        ByteSink out = new ByteSink();
        out.varint(t.rows().size());
        for (MutexTable.Row r : t.rows()) {
            out.string(r.name());
            out.string(r.metric());
            out.string(r.siteFile() == null ? "" : r.siteFile());
            out.varint(r.siteLine());
            out.varint(r.waitedNs());
            out.varint(r.topNode() + 1L);
            out.varint(r.topNodeNs());
        }
        return out.toByteArray();
    }

    /** @param nodes the tree's size: every top node must be below it */
    public static MutexTable decode(byte[] payload, int nodes) {
        ByteSource in = new ByteSource(payload);
        int n = in.count(7, "mutex rows");
        List<MutexTable.Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = in.string(), metric = in.string(), file = in.string();
            int line = in.bounded(Integer.MAX_VALUE, "line");
            long waited = in.varint();
            int top = in.bounded(nodes, "node") - 1;
            long topNs = in.varint();
            if (waited < 0 || topNs < 0 || topNs > waited) throw in.fail("impossible waiting times");
            rows.add(new MutexTable.Row(name, metric, file.isEmpty() ? null : file, line, waited, top, topNs));
        }
        in.end("mutex table");
        return new MutexTable(rows);
    }
}
