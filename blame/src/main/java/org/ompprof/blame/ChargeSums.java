package org.ompprof.blame;

import java.util.List;
import java.util.function.IntUnaryOperator;
import org.eclipse.collections.impl.map.mutable.primitive.LongLongHashMap;

/**
 * Sums of charges by (node, thread, kind) while blame is computed, charges to a blamee apart
 * from latency charges (the waiter's own context, the waiting construct's own cost), and the
 * totals per kind that conservation is checked against.
 */
final class ChargeSums {
    private static final int KINDS = BlameKind.values().length;

    private final LongLongHashMap sums = new LongLongHashMap();
    private final LongLongHashMap latencySums = new LongLongHashMap();
    final long[] waited = new long[KINDS];
    final long[] unattributed = new long[KINDS];
    final long[] latency = new long[KINDS];
    final long[] outsideHold = new long[KINDS];
    final long[] handedOver = new long[KINDS];

    void waited(BlameKind kind, long value) {
        waited[kind.ordinal()] += value;
    }

    void charge(int node, int thread, BlameKind kind, long value) {
        addTo(sums, node, thread, kind, value);
    }

    /** Waiting nobody caused: the construct's own cost, charged to the waiter's context {@code node}. */
    void latency(int node, int thread, BlameKind kind, long value) {
        latency[kind.ordinal()] += value;
        addTo(latencySums, node, thread, kind, value);
    }

    /** Time in a waiting construct that was no waiting (an MPI call after the last member came): counted only. */
    void notWaiting(BlameKind kind, long value) {
        latency[kind.ordinal()] += value;
    }

    void unattributed(int thread, BlameKind kind, long value) {
        unattributed[kind.ordinal()] += value;
        charge(Charges.UNATTRIBUTED, thread, kind, value);
    }

    private static LongLongHashMap resolved(LongLongHashMap sums, IntUnaryOperator resolve) {
        LongLongHashMap out = new LongLongHashMap(sums.size());
        for (long key : sums.keysView().toSortedArray())
            out.addToValue(withNode(key, resolve.applyAsInt(node(key))), sums.get(key));
        return out;
    }

    private static void addTo(LongLongHashMap to, int node, int thread, BlameKind kind, long value) {
        if (value == 0) return;
        to.addToValue(withNode((long) thread << 3 | kind.ordinal(), node), value);
    }

    /** A sum's key: node + 1 above bit 24, the thread at bits 3-23, the kind below. */
    private static long withNode(long key, int node) {
        return (node + 1L) << 24 | (key & 0xFF_FFFF);
    }

    private static int node(long key) {
        return (int) (key >>> 24) - 1;
    }

    /** The sums, each node made the tree node it stands for by {@code resolve} (sums to one node added up). */
    Charges result(List<Charges.Mutex> mutexes, IntUnaryOperator resolve) {
        LongLongHashMap sums = resolved(this.sums, resolve), latencySums = resolved(this.latencySums, resolve);
        int n = sums.size(), m = latencySums.size();
        int[] node = new int[n + m], thread = new int[n + m];
        byte[] kind = new byte[n + m];
        long[] value = new long[n + m];
        boolean[] isLatency = new boolean[n + m];
        int i = 0;
        for (LongLongHashMap map : List.of(sums, latencySums)) {
            for (long key : map.keysView().toSortedArray()) { // a stable order for equal inputs
                node[i] = node(key);
                thread[i] = (int) (key >>> 3) & 0x1F_FFFF;
                kind[i] = (byte) (key & 7);
                value[i] = map.get(key);
                isLatency[i] = map == latencySums;
                i++;
            }
        }
        return new Charges(
                new Charges.Sums(node, thread, kind, value, isLatency),
                waited,
                unattributed,
                latency,
                outsideHold,
                handedOver,
                mutexes);
    }
}
