package org.ompprof.calltree.profile;

import java.util.Arrays;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;

/**
 * Time per source line within each calling context: for a context's function, the line that
 * was executing (exclusive: the sample's leaf) or that made the call the sample lies under
 * (inclusive). What a source view puts next to each line. Rows sorted by (node, line).
 */
public final class LineTable {
    public static final LineTable EMPTY = new LineTable(new int[0], new int[0], new long[0], new long[0]);

    private final int[] node;
    private final int[] line;
    private final long[] inclusiveNs;
    private final long[] exclusiveNs;
    private final CallLines calls;

    LineTable(int[] node, int[] line, long[] inclusiveNs, long[] exclusiveNs) {
        this(node, line, inclusiveNs, exclusiveNs, CallLines.NONE);
    }

    LineTable(int[] node, int[] line, long[] inclusiveNs, long[] exclusiveNs, CallLines calls) {
        this.node = node;
        this.line = line;
        this.inclusiveNs = inclusiveNs;
        this.exclusiveNs = exclusiveNs;
        this.calls = calls;
    }

    /**
     * Per context, the line of its caller's function it was called from: the line most of its time was called
     * from when one line has most of it, else one of them ({@code weight}: what the line's share won by, for merges
     * to weigh two profiles' lines). A context called from two lines of one function is one node.
     */
    record CallLines(int[] node, int[] line, long[] weight) {
        static final CallLines NONE = new CallLines(new int[0], new int[0], new long[0]);

        int of(int contextNode) {
            int i = Arrays.binarySearch(node, contextNode);
            return i < 0 ? 0 : line[i];
        }
    }

    /** The line of the caller's function {@code contextNode} was called from (see {@link CallLines}); 0 unknown. */
    public int callLine(int contextNode) {
        return calls.of(contextNode);
    }

    CallLines calls() {
        return calls;
    }

    /** One line of one context. */
    public record Row(int node, int line, long inclusiveNs, long exclusiveNs) {}

    public int size() {
        return node.length;
    }

    public Row row(int i) {
        return new Row(node[i], line[i], inclusiveNs[i], exclusiveNs[i]);
    }

    /** The rows of {@code contextNode}, by line. */
    public Row[] of(int contextNode) {
        int from = firstOf(contextNode), to = firstOf(contextNode + 1);
        Row[] out = new Row[to - from];
        for (int i = from; i < to; i++) out[i - from] = row(i);
        return out;
    }

    private int firstOf(int contextNode) {
        int lo = 0, hi = node.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (node[mid] < contextNode) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** The rows in another tree: node n becomes {@code nodeMap[n]} (rows that meet there add up). */
    public LineTable remapped(int[] nodeMap) {
        Builder b = new Builder();
        b.addAll(this, nodeMap);
        return b.build();
    }

    /** Collects line times sample by sample; not thread-safe. */
    public static final class Builder {
        private final LongIntHashMap index = new LongIntHashMap();
        private long[] keys = new long[256];
        private long[] inclusive = new long[256];
        private long[] exclusive = new long[256];
        private int n;
        /** Per node, the call line leading the vote and what it leads by (a weighted majority vote: O(1) a call). */
        private int[] callLine = new int[256];

        private long[] callLead = new long[256];

        /** Adds {@code ns} of {@code contextNode}'s time called from {@code callerLine} of its caller's function. */
        public void call(int contextNode, int callerLine, long ns) {
            if (callerLine <= 0 || contextNode < 0 || ns <= 0) return;
            if (contextNode >= callLine.length) {
                int size = Math.max(contextNode + 1, callLine.length * 2);
                callLine = Arrays.copyOf(callLine, size);
                callLead = Arrays.copyOf(callLead, size);
            }
            if (callLine[contextNode] == callerLine) {
                callLead[contextNode] += ns;
            } else if (callLead[contextNode] >= ns) {
                callLead[contextNode] -= ns;
            } else {
                callLead[contextNode] = ns - callLead[contextNode];
                callLine[contextNode] = callerLine;
            }
        }

        /**
         * Adds {@code ns} at ({@code contextNode}, {@code sourceLine}); to the exclusive time too when it is the
         * sample's leaf.
         */
        public void add(int contextNode, int sourceLine, long ns, boolean leaf) {
            if (sourceLine <= 0 || contextNode < 0) return;
            long key = (long) contextNode << 32 | sourceLine;
            int i = index.getIfAbsent(key, -1);
            if (i < 0) i = append(key);
            inclusive[i] += ns;
            if (leaf) exclusive[i] += ns;
        }

        /** Adds another table's rows, node n as {@code nodeMap[n]} (when profiles are merged). */
        public void addAll(LineTable other, int[] nodeMap) {
            for (int r = 0; r < other.size(); r++) {
                long key = (long) nodeMap[other.node[r]] << 32 | other.line[r];
                int i = index.getIfAbsent(key, -1);
                if (i < 0) i = append(key);
                inclusive[i] += other.inclusiveNs[r];
                exclusive[i] += other.exclusiveNs[r];
            }
            CallLines c = other.calls;
            for (int r = 0; r < c.node().length; r++) call(nodeMap[c.node()[r]], c.line()[r], c.weight()[r]);
        }

        private int append(long key) {
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
                inclusive = Arrays.copyOf(inclusive, n * 2);
                exclusive = Arrays.copyOf(exclusive, n * 2);
            }
            keys[n] = key;
            index.put(key, n);
            return n++;
        }

        public LineTable build() {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) order[i] = i;
            Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
            int[] node = new int[n], line = new int[n];
            long[] inc = new long[n], exc = new long[n];
            for (int i = 0; i < n; i++) {
                int j = order[i];
                node[i] = (int) (keys[j] >>> 32);
                line[i] = (int) keys[j];
                inc[i] = inclusive[j];
                exc[i] = exclusive[j];
            }
            return new LineTable(node, line, inc, exc, callLines());
        }

        private CallLines callLines() {
            int count = 0;
            for (int i = 0; i < callLine.length; i++) if (callLine[i] > 0 && callLead[i] > 0) count++;
            int[] node = new int[count], line = new int[count];
            long[] weight = new long[count];
            for (int i = 0, k = 0; i < callLine.length; i++) {
                if (callLine[i] <= 0 || callLead[i] <= 0) continue;
                node[k] = i;
                line[k] = callLine[i];
                weight[k++] = callLead[i];
            }
            return new CallLines(node, line, weight);
        }
    }

    /** From decoded columns, checked: sorted by (node, line), lines positive, exclusive within inclusive. */
    static LineTable of(int[] node, int[] line, long[] inclusiveNs, long[] exclusiveNs, ByteSource in) {
        for (int i = 0; i < node.length; i++) {
            if (line[i] <= 0) throw in.fail("line " + line[i]);
            if (exclusiveNs[i] < 0 || exclusiveNs[i] > inclusiveNs[i])
                throw in.fail("exclusive time outside inclusive");
            if (i > 0 && (node[i] < node[i - 1] || node[i] == node[i - 1] && line[i] <= line[i - 1]))
                throw in.fail("rows out of order");
        }
        return new LineTable(node, line, inclusiveNs, exclusiveNs);
    }

    /** The same rows with call lines decoded apart, checked: nodes increasing, lines and weights positive. */
    LineTable withCalls(CallLines calls, ByteSource in) {
        for (int i = 0; i < calls.node().length; i++) {
            if (calls.line()[i] <= 0) throw in.fail("call line " + calls.line()[i]);
            if (calls.weight()[i] <= 0) throw in.fail("call line weight " + calls.weight()[i]);
            if (i > 0 && calls.node()[i] <= calls.node()[i - 1]) throw in.fail("call lines out of order");
        }
        return new LineTable(node, line, inclusiveNs, exclusiveNs, calls);
    }
}
