package org.ompprof.calltree.profile;

/** The LINES section: row count, then per row node and line as deltas, inclusive and exclusive time. */
public final class LineTableCodec {
    private LineTableCodec() {}

    public static byte[] encode(LineTable t) {
        ByteSink out = new ByteSink();
        out.varint(t.size());
        int lastNode = 0, lastLine = 0;
        for (int i = 0; i < t.size(); i++) {
            LineTable.Row r = t.row(i);
            out.varint(r.node() - lastNode);
            out.varint(r.node() == lastNode && i > 0 ? r.line() - lastLine : r.line());
            out.varint(r.inclusiveNs());
            out.varint(r.exclusiveNs());
            lastNode = r.node();
            lastLine = r.line();
        }
        return out.toByteArray();
    }

    /** @param nodes the tree's size: every row's node must be below it */
    public static LineTable decode(byte[] payload, int nodes) {
        ByteSource in = new ByteSource(payload);
        int n = in.count(4, "line rows");
        int[] node = new int[n], line = new int[n];
        long[] inc = new long[n], exc = new long[n];
        int lastNode = 0, lastLine = 0;
        for (int i = 0; i < n; i++) {
            node[i] = lastNode + in.bounded(nodes - 1L - lastNode, "line row node");
            boolean sameNode = node[i] == lastNode && i > 0;
            int l = in.bounded(sameNode ? Integer.MAX_VALUE - (long) lastLine : Integer.MAX_VALUE, "line");
            line[i] = sameNode ? lastLine + l : l;
            inc[i] = in.varint();
            exc[i] = in.varint();
            lastNode = node[i];
            lastLine = line[i];
        }
        in.end("line table");
        return LineTable.of(node, line, inc, exc, in);
    }
}
