package org.ompprof.blame;

import java.util.Arrays;
import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;
import org.ompprof.sampler.omp.WaitClass;

/**
 * The samples blame looks at, as columns, grouped by thread and in time order within each
 * thread (the builder sorts them if they came otherwise). Its samples are immutable once built; its searches start
 * where the thread's last one ended, so a table is read by one thread at a time.
 */
public final class SampleTable {
    /** How many of a thread's samples on either side of a moment are searched for its work in a region instance. */
    static final int REGION_SCAN = 8;

    final int[] thread;
    final long[] time;
    final long[] weight;
    final byte[] cls;
    final long[] waitId;
    final long[] region;
    final int[] node;
    /** Per distinct thread, in ascending thread order: its samples are [from, to). */
    final int[] threads;

    final int[] from;
    final int[] to;
    /** Per thread index, where its last search ended: blame asks of each thread at nearby moments. */
    private final int[] searched;

    private final IntIntHashMap threadIndex = new IntIntHashMap();

    private SampleTable(
            int[] thread, long[] time, long[] weight, byte[] cls, long[] waitId, long[] region, int[] node) {
        this.thread = thread;
        this.time = time;
        this.weight = weight;
        this.cls = cls;
        this.waitId = waitId;
        this.region = region;
        this.node = node;
        int distinct = 0;
        for (int i = 0; i < thread.length; i++) if (i == 0 || thread[i] != thread[i - 1]) distinct++;
        threads = new int[distinct];
        from = new int[distinct];
        to = new int[distinct];
        for (int i = 0, k = -1; i < thread.length; i++) {
            if (i == 0 || thread[i] != thread[i - 1]) {
                threads[++k] = thread[i];
                from[k] = i;
                threadIndex.put(thread[i], k);
            }
            to[k] = i + 1;
        }
        searched = from.clone();
    }

    public int size() {
        return time.length;
    }

    public int thread(int i) {
        return thread[i];
    }

    public long timeNs(int i) {
        return time[i];
    }

    public long weightNs(int i) {
        return weight[i];
    }

    public WaitClass waitClass(int i) {
        return WaitClass.ofOrdinal(cls[i]);
    }

    public int node(int i) {
        return node[i];
    }

    /** The index of {@code thread} in {@link #threads}, or -1. */
    int threadIndex(int t) {
        return threadIndex.getIfAbsent(t, -1);
    }

    /** The first sample of thread index {@code k} taken at or after {@code t}; {@code to[k]} if none. */
    int firstAtOrAfter(int k, long t) {
        return searched[k] = SortedLongs.firstAtOrAfter(time, from[k], to[k], searched[k], t);
    }

    /**
     * The sample of thread index {@code k} whose stretch covers {@code t}: a sample stands for
     * the {@code weight} before it (a thread descheduled or late to its signal is sampled once,
     * with the overrun's weight, for all of that time), so it is the first sample at or after t
     * if that one began by t; -1 if none does (the thread was not sampled then).
     */
    int covering(int k, long t) {
        int a = firstAtOrAfter(k, t);
        return a < to[k] && time[a] - weight[a] <= t ? a : -1;
    }

    /**
     * The working sample of thread index {@code k} in region instance {@code r} nearest {@code t},
     * among its {@link #REGION_SCAN} samples on either side of t; -1 if none. (One thread's samples
     * in one instance are contiguous, and an instance is short where this is asked.)
     */
    int workingInRegion(int k, long t, long r) {
        int after = firstAtOrAfter(k, t), before = after - 1;
        for (int step = 0; step < 2 * REGION_SCAN; step++) {
            boolean later = after < to[k];
            boolean earlier = before >= from[k];
            if (!later && !earlier) return -1;
            int j = later && (!earlier || time[after] - t <= t - time[before]) ? after++ : before--;
            if (region[j] == r && WaitClass.ofOrdinal(cls[j]) == WaitClass.WORK) return j;
        }
        return -1;
    }

    /** The working sample of thread index {@code k} nearest {@code t}, at most {@code maxDistance} away; -1 if none. */
    int nearestWorking(int k, long t, long maxDistance) {
        int after = firstAtOrAfter(k, t), before = after - 1;
        while (true) {
            boolean later = after < to[k] && time[after] - t <= maxDistance;
            boolean earlier = before >= from[k] && t - time[before] <= maxDistance;
            if (!later && !earlier) return -1;
            int j = later && (!earlier || time[after] - t <= t - time[before]) ? after++ : before--;
            if (WaitClass.ofOrdinal(cls[j]) == WaitClass.WORK) return j;
        }
    }

    /**
     * The sample of thread index {@code k} within [start, end) nearest in time to {@code t}, -1 if it has none there.
     */
    int nearestWithin(int k, long t, long start, long end) {
        int first = firstAtOrAfter(k, start), last = firstAtOrAfter(k, end) - 1;
        if (first > last) return -1;
        if (t <= time[first]) return first;
        if (t >= time[last]) return last;
        int after = firstAtOrAfter(k, t);
        return t - time[after - 1] <= time[after] - t ? after - 1 : after;
    }

    /** Collects samples in any order. Not thread-safe. */
    public static final class Builder {
        private int n;
        private int[] thread;
        private long[] time;
        private long[] weight;
        private byte[] cls;
        private long[] waitId;
        private long[] region;
        private int[] node;

        public Builder() {
            this(1024);
        }

        /** A builder with room for {@code capacity} samples before it grows (a table's size known ahead). */
        public Builder(int capacity) {
            int c = Math.max(1, capacity);
            thread = new int[c];
            time = new long[c];
            weight = new long[c];
            cls = new byte[c];
            waitId = new long[c];
            region = new long[c];
            node = new int[c];
        }

        /**
         * @param region the innermost parallel region (any id that is equal for the same region), 0 if none
         * @param node the sample's context, in the caller's numbering (a tree node)
         */
        public Builder add(
                int threadSeq,
                long timeNs,
                long weightNs,
                WaitClass c,
                long waitIdentifier,
                long regionId,
                int contextNode) {
            if (weightNs < 0) throw new IllegalArgumentException("negative weight " + weightNs);
            if (n == time.length) grow(2 * n);
            thread[n] = threadSeq;
            time[n] = timeNs;
            weight[n] = weightNs;
            cls[n] = (byte) c.ordinal();
            waitId[n] = waitIdentifier;
            region[n] = regionId;
            node[n] = contextNode;
            n++;
            return this;
        }

        /** A builder of all of {@code parts}' samples, in order, made at their size at once. */
        public static Builder joined(List<Builder> parts) {
            int size = 0;
            for (Builder b : parts) size += b.n;
            Builder all = new Builder(size);
            for (Builder b : parts) all.addAll(b);
            return all;
        }

        /** Appends all of {@code other}'s samples (checked when they were added there). */
        public Builder addAll(Builder other) {
            if (n + other.n > time.length) grow(Math.max(n + other.n, 2 * n));
            System.arraycopy(other.thread, 0, thread, n, other.n);
            System.arraycopy(other.time, 0, time, n, other.n);
            System.arraycopy(other.weight, 0, weight, n, other.n);
            System.arraycopy(other.cls, 0, cls, n, other.n);
            System.arraycopy(other.waitId, 0, waitId, n, other.n);
            System.arraycopy(other.region, 0, region, n, other.n);
            System.arraycopy(other.node, 0, node, n, other.n);
            n += other.n;
            return this;
        }

        public int size() {
            return n;
        }

        /** Hands every sample to {@code blame}, in the order they were added. */
        void addTo(WindowedBlame blame) {
            for (int i = 0; i < n; i++)
                blame.add(thread[i], time[i], weight[i], WaitClass.ofOrdinal(cls[i]), waitId[i], region[i], node[i]);
        }

        private void grow(int c) {
            thread = Arrays.copyOf(thread, c);
            time = Arrays.copyOf(time, c);
            weight = Arrays.copyOf(weight, c);
            cls = Arrays.copyOf(cls, c);
            waitId = Arrays.copyOf(waitId, c);
            region = Arrays.copyOf(region, c);
            node = Arrays.copyOf(node, c);
        }

        public SampleTable build() {
            int[] order = order();
            return new SampleTable(
                    pick(thread, order),
                    pick(time, order),
                    pick(weight, order),
                    pick(cls, order),
                    pick(waitId, order),
                    pick(region, order),
                    pick(node, order));
        }

        /**
         * Indices by (thread, time); the identity when the samples came that way, as they do from a
         * recording thread by thread. Samples of all threads in time order (as blame by window gets
         * them) need only be grouped by thread, keeping their order; anything else is sorted.
         */
        private int[] order() {
            int[] order = new int[n];
            for (int i = 0; i < n; i++) order[i] = i;
            if (inOrder(order)) return order;
            int[] grouped = groupedByThread();
            if (grouped != null && inOrder(grouped)) return grouped;
            mergeSort(order, new int[n], 0, n);
            return order;
        }

        private boolean inOrder(int[] order) {
            for (int i = 1; i < order.length; i++) if (before(order[i], order[i - 1])) return false;
            return true;
        }

        /**
         * A stable counting sort by thread, over the span of thread numbers (a recording's run from 1 up); null if they
         * are too spread for that, and the caller sorts. Blame sorts every window's samples so: a fifth of its time
         * went here when the distinct threads were found with a set of boxed numbers.
         */
        private int[] groupedByThread() {
            int min = Integer.MAX_VALUE, max = Integer.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                min = Math.min(min, thread[i]);
                max = Math.max(max, thread[i]);
            }
            if ((long) max - min > 4L * n + 64) return null;
            int[] start = new int[max - min + 2];
            for (int i = 0; i < n; i++) start[thread[i] - min + 1]++;
            for (int k = 1; k < start.length; k++) start[k] += start[k - 1];
            int[] out = new int[n];
            for (int i = 0; i < n; i++) out[start[thread[i] - min]++] = i;
            return out;
        }

        /** A total order (ties broken on every column), so that the input's order never matters. */
        private boolean before(int a, int b) {
            if (thread[a] != thread[b]) return thread[a] < thread[b];
            if (time[a] != time[b]) return time[a] < time[b];
            if (node[a] != node[b]) return node[a] < node[b];
            if (cls[a] != cls[b]) return cls[a] < cls[b];
            if (weight[a] != weight[b]) return weight[a] < weight[b];
            if (waitId[a] != waitId[b]) return waitId[a] < waitId[b];
            return region[a] < region[b];
        }

        private void mergeSort(int[] a, int[] tmp, int lo, int hi) {
            if (hi - lo < 2) return;
            int mid = (lo + hi) >>> 1;
            mergeSort(a, tmp, lo, mid);
            mergeSort(a, tmp, mid, hi);
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = before(a[j], a[i]) ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
            System.arraycopy(tmp, lo, a, lo, hi - lo);
        }

        private static int[] pick(int[] column, int[] order) {
            int[] out = new int[order.length];
            for (int i = 0; i < order.length; i++) out[i] = column[order[i]];
            return out;
        }

        private static long[] pick(long[] column, int[] order) {
            long[] out = new long[order.length];
            for (int i = 0; i < order.length; i++) out[i] = column[order[i]];
            return out;
        }

        private static byte[] pick(byte[] column, int[] order) {
            byte[] out = new byte[order.length];
            for (int i = 0; i < order.length; i++) out[i] = column[order[i]];
            return out;
        }
    }
}
