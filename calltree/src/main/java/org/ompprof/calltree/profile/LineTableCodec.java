package org.ompprof.calltree.profile;

import org.ompprof.sampler.recording.RecordingFormat;

/**
 * The LINES section: row count, then per row node and line as deltas, inclusive and exclusive time; then (format 4
 * on) the call lines: count, then per context its node as a delta, line and weight.
 */
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
        LineTable.CallLines calls = t.calls();
        out.varint(calls.node().length);
        for (int i = 0, last = 0; i < calls.node().length; i++) {
            out.varint(calls.node()[i] - last);
            out.varint(calls.line()[i]);
            out.varint(calls.weight()[i]);
            last = calls.node()[i];
        }
        return out.toByteArray();
    }

    /** As {@link #decode(byte[], int, int)} for a profile of this version. */
    public static LineTable decode(byte[] payload, int nodes) {
        return decode(payload, nodes, RecordingFormat.VERSION);
    }

    /**
     * @param nodes the tree's size: every row's node must be below it
     * @param formatVersion the profile's: call lines follow the rows from version 4 on
     */
    public static LineTable decode(byte[] payload, int nodes, int formatVersion) {
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
        LineTable table = LineTable.of(node, line, inc, exc, in);
        if (formatVersion >= 4) table = table.withCalls(calls(in, nodes), in);
        in.end("line table");
        return table;
    }

    private static LineTable.CallLines calls(ByteSource in, int nodes) {
        int n = in.count(3, "call lines");
        int[] node = new int[n], line = new int[n];
        long[] weight = new long[n];
        for (int i = 0, last = 0; i < n; i++) {
            node[i] = last + in.bounded(nodes - 1L - last, "call line node");
            line[i] = in.bounded(Integer.MAX_VALUE, "call line");
            weight[i] = in.varint();
            last = node[i];
        }
        return new LineTable.CallLines(node, line, weight);
    }
}
