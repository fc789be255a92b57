package org.ompprof.calltree.profile;

import java.util.Arrays;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;

/**
 * A coarser timeline for long runs: time is cut into bins of {@code periodNs} aligned to
 * multiples of it (so two threads' bins line up and downsampling again with the same period
 * changes nothing), and each bin that holds samples becomes one entry: at the time of its first
 * sample, weighing the sum of its samples' weights (a thread's total time is kept exactly), in
 * the context and state that hold the most of the bin's weight (the earliest of equals). When
 * no two samples share a bin (a period shorter than every interval between samples) the
 * timeline is left as it was. Memory is one bin's distinct (context, state) pairs.
 */
public final class TimelineDownsampler {
    /** Receives the coarser timeline's entries, in time order. */
    @FunctionalInterface
    public interface Out {
        void add(long timeNs, int node, int state, long weightNs);
    }

    private final long periodNs;
    private final Out out;
    private long bin = Long.MIN_VALUE;
    private long firstTime;
    private long binWeight;
    /** The bin's distinct (node, state) pairs in order of first appearance, with their weights. */
    private int[] nodes = new int[8];

    private int[] states = new int[8];
    private long[] weights = new long[8];
    private int pairs;
    private final LongIntHashMap index = new LongIntHashMap();
    private boolean finished;

    public TimelineDownsampler(long periodNs, Out out) {
        if (periodNs <= 0) throw new IllegalArgumentException("timeline resolution of " + periodNs + " ns");
        this.periodNs = periodNs;
        this.out = out;
    }

    /** The next sample of one thread, in time order. */
    public void add(long timeNs, int node, int state, long weightNs) {
        if (finished) throw new IllegalStateException("downsampler already finished");
        long b = Math.floorDiv(timeNs, periodNs);
        if (b < bin)
            throw new IllegalArgumentException("sample at " + timeNs + " ns is earlier than the bin before it");
        if (b != bin) {
            emit();
            bin = b;
            firstTime = timeNs;
        }
        binWeight += weightNs;
        long key = (long) node << 32 | Integer.toUnsignedLong(state);
        int at = index.getIfAbsent(key, -1);
        if (at >= 0) {
            weights[at] += weightNs;
            return;
        }
        index.put(key, pairs);
        if (pairs == nodes.length) grow();
        nodes[pairs] = node;
        states[pairs] = state;
        weights[pairs] = weightNs;
        pairs++;
    }

    /** Emits the last bin; nothing may be added after. */
    public void finish() {
        if (finished) return;
        emit();
        finished = true;
    }

    /** One thread's whole timeline, downsampled. */
    public static Timeline downsample(Timeline t, long periodNs) {
        Timeline.Builder b = new Timeline.Builder(t.thread());
        TimelineDownsampler d = new TimelineDownsampler(periodNs, b::add);
        for (int i = 0; i < t.size(); i++) d.add(t.timeNs(i), t.node(i), t.state(i), t.weightNs(i));
        d.finish();
        return b.build();
    }

    private void emit() {
        if (pairs == 0) return;
        int top = 0;
        for (int i = 1; i < pairs; i++) if (weights[i] > weights[top]) top = i;
        out.add(firstTime, nodes[top], states[top], binWeight);
        pairs = 0;
        binWeight = 0;
        index.clear();
    }

    private void grow() {
        nodes = Arrays.copyOf(nodes, 2 * nodes.length);
        states = Arrays.copyOf(states, 2 * states.length);
        weights = Arrays.copyOf(weights, 2 * weights.length);
    }
}
