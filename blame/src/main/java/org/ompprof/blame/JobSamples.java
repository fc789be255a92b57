package org.ompprof.blame;

import java.util.Arrays;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;

/**
 * The samples of an MPI job's ranks, on the job's clock, in columns per rank sorted by time:
 * what cross-rank blame looks up (what a late rank ran while the others waited) and charges (the
 * waiting inside MPI calls). About 30 bytes a sample.
 */
public final class JobSamples {
    /** One rank's samples, all its threads, by time. */
    static final class Rank {
        final long[] time;
        final long[] weight;
        final int[] node;
        final int[] thread;
        final int[] state;
        /** The largest weight: no sample taken later than {@code t + maxWeight} covers t. */
        final long maxWeight;

        private Rank(long[] time, long[] weight, int[] node, int[] thread, int[] state) {
            this.time = time;
            this.weight = weight;
            this.node = node;
            this.thread = thread;
            this.state = state;
            long max = 0;
            for (long w : weight) max = Math.max(max, w);
            this.maxWeight = max;
        }

        int size() {
            return time.length;
        }

        /** The first sample taken at or after {@code t}. */
        int firstAtOrAfter(long t) {
            return SortedLongs.firstAtOrAfter(time, 0, time.length, t);
        }

        /** Running the program's own code: the late rank's work, preferred as the cause. */
        boolean working(int i) {
            OmpState s = OmpState.of(state[i]);
            return !s.isMpi() && s.waitClass() == WaitClass.WORK;
        }

        boolean inMpi(int i) {
            return OmpState.of(state[i]).isMpi();
        }
    }

    private final IntObjectHashMap<Rank> ranks;

    private JobSamples(IntObjectHashMap<Rank> ranks) {
        this.ranks = ranks;
    }

    /** The samples of {@code rank}, or null if the job has none of it. */
    Rank rank(int rank) {
        return ranks.get(rank);
    }

    int[] rankNumbers() {
        int[] r = ranks.keySet().toSortedArray();
        return r;
    }

    /** Collects samples in any order; {@link #build} sorts them. Not thread-safe. */
    public static final class Builder {
        private final IntObjectHashMap<Columns> byRank = new IntObjectHashMap<>();

        /** A sample of {@code thread} (the job profile's number) of {@code rank}, its time on the job's clock. */
        public Builder add(int rank, int thread, long timeNs, long weightNs, int node, int ompState) {
            byRank.getIfAbsentPut(rank, Columns::new).add(timeNs, weightNs, node, thread, ompState);
            return this;
        }

        public JobSamples build() {
            IntObjectHashMap<Rank> out = new IntObjectHashMap<>();
            byRank.forEachKeyValue((rank, c) -> out.put(rank, c.sorted()));
            return new JobSamples(out);
        }
    }

    private static final class Columns {
        private long[] time = new long[64], weight = new long[64];
        private int[] node = new int[64], thread = new int[64], state = new int[64];
        private int n;

        void add(long t, long w, int nd, int th, int st) {
            if (n == time.length) {
                int c = n * 2;
                time = Arrays.copyOf(time, c);
                weight = Arrays.copyOf(weight, c);
                node = Arrays.copyOf(node, c);
                thread = Arrays.copyOf(thread, c);
                state = Arrays.copyOf(state, c);
            }
            time[n] = t;
            weight[n] = w;
            node[n] = nd;
            thread[n] = th;
            state[n] = st;
            n++;
        }

        Rank sorted() {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) order[i] = i;
            Arrays.sort(order, (a, b) -> a.equals(b) ? 0 : time[a] != time[b] ? Long.compare(time[a], time[b]) : a - b);
            long[] t = new long[n], w = new long[n];
            int[] nd = new int[n], th = new int[n], st = new int[n];
            for (int i = 0; i < n; i++) {
                int j = order[i];
                t[i] = time[j];
                w[i] = weight[j];
                nd[i] = node[j];
                th[i] = thread[j];
                st[i] = state[j];
            }
            return new Rank(t, w, nd, th, st);
        }
    }
}
