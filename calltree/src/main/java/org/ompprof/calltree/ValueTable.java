package org.ompprof.calltree;

import java.util.Arrays;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;

/**
 * Exclusive metric values, stored per (node, thread) pair that has any. Each pair gets a dense
 * slot number once; every metric is then a column indexed by slot. The pair look-up is thus
 * paid once per sample however many metrics it adds to, and a column costs 8 bytes per pair
 * ({@link MetricStorage#DENSE}) or only what its non-zero pairs need ({@link MetricStorage#SPARSE}).
 * A dense array per thread would cost nodes x threads longs (1M x 256 x 8 = 2 GB per metric)
 * although most nodes are touched by a few threads only.
 */
final class ValueTable {
    static final int THREAD_BITS = 20;
    static final int MAX_THREAD = (1 << THREAD_BITS) - 1;

    private final MetricRegistry registry;
    private LongIntHashMap slotOf = new LongIntHashMap();
    private final IntHashSet threads = new IntHashSet();
    private int[] slotNode = new int[1024];
    private int[] slotThread = new int[1024];
    private int slots;
    private MetricColumn[] columns = new MetricColumn[0];

    ValueTable(MetricRegistry registry) {
        this.registry = registry;
    }

    /** Whether {@link #slotOf} holds every slot; a loaded tree builds it on the first look-up. */
    private boolean indexed = true;

    /** The slot of (node, thread), created if absent. */
    int slot(int node, int thread) {
        if (!indexed) index();
        int id = slotOf.getIfAbsentPut(key(node, thread), slots);
        if (id == slots) append(node, thread);
        return id;
    }

    /** The slot of (node, thread), or -1. */
    int findSlot(int node, int thread) {
        if (thread < 0 || thread > MAX_THREAD) return -1;
        if (!indexed) index();
        return slotOf.getIfAbsent(key(node, thread), -1);
    }

    static void checkThread(int thread) {
        if (thread < 0 || thread > MAX_THREAD)
            throw new IllegalArgumentException("thread " + thread + " outside 0.." + MAX_THREAD);
    }

    /** Appends a slot from a profile file without indexing it; the caller has checked node and thread. */
    int appendLoaded(int node, int thread) {
        indexed = false;
        append(node, thread);
        return slots - 1;
    }

    private void index() {
        indexed = true;
        LongIntHashMap map = new LongIntHashMap(slots);
        for (int s = 0; s < slots; s++) {
            long key = key(slotNode[s], slotThread[s]);
            if (!map.containsKey(key)) map.put(key, s);
        }
        slotOf = map;
    }

    /** Room for {@code n} slots without growing. */
    void ensureSlots(int n) {
        if (n > slotNode.length) {
            slotNode = Arrays.copyOf(slotNode, n);
            slotThread = Arrays.copyOf(slotThread, n);
        }
    }

    /** Makes the column of {@code metric} ready for {@code values} values, before a load adds them. */
    void reserve(int metric, int values) {
        if (metric >= columns.length) growColumns(metric);
        if (columns[metric] == null)
            columns[metric] = MetricColumn.of(registry.metric(metric).storage(), slots, values);
    }

    int slotNode(int slot) {
        return slotNode[slot];
    }

    int slotThread(int slot) {
        return slotThread[slot];
    }

    /** Calls {@code consumer} with (slot, value) for each non-zero value of {@code metric}. */
    void forEachNonZeroSlot(int metric, MetricColumn.SlotValueConsumer consumer) {
        if (metric < columns.length && columns[metric] != null) columns[metric].forEachNonZero(consumer);
    }

    private static long key(int node, int thread) {
        return (long) node << THREAD_BITS | thread;
    }

    private void append(int node, int thread) {
        if (slots == slotNode.length) {
            slotNode = Arrays.copyOf(slotNode, slots * 2);
            slotThread = Arrays.copyOf(slotThread, slots * 2);
        }
        slotNode[slots] = node;
        slotThread[slots] = thread;
        slots++;
        threads.add(thread);
    }

    void add(int slot, int metric, long value) {
        column(metric).add(slot, value);
    }

    long get(int slot, int metric) {
        return metric < columns.length && columns[metric] != null ? columns[metric].get(slot) : 0;
    }

    private MetricColumn column(int metric) {
        if (metric >= columns.length) growColumns(metric);
        MetricColumn c = columns[metric];
        if (c == null)
            c = columns[metric] = MetricColumn.of(registry.metric(metric).storage());
        return c;
    }

    private void growColumns(int metric) {
        if (metric >= registry.size()) throw new IllegalArgumentException("no metric " + metric + " in the registry");
        columns = Arrays.copyOf(columns, registry.size());
    }

    /** Calls {@code consumer} with (node, thread, value) for each non-zero value of {@code metric}. */
    void forEachNonZero(int metric, ExclusiveValueConsumer consumer) {
        if (metric >= columns.length || columns[metric] == null) return;
        columns[metric].forEachNonZero((slot, value) -> consumer.accept(slotNode[slot], slotThread[slot], value));
    }

    int[] threads() {
        int[] out = threads.toArray();
        Arrays.sort(out);
        return out;
    }

    int slotCount() {
        return slots;
    }
}
