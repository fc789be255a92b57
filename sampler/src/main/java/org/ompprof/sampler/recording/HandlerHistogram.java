package org.ompprof.sampler.recording;

import java.util.Arrays;
import org.ompprof.sampler.wire.Wire;

/**
 * The agent's SIGPROF handler cost histogram, summed over slots: 256 linear buckets of 16 ns,
 * then 24 power-of-two buckets from 4096 ns. Values are reported as bucket upper bounds.
 */
public final class HandlerHistogram {
    private final long[] counts;

    public HandlerHistogram(long[] counts) {
        if (counts.length != Wire.HIST_BUCKETS)
            throw new IllegalArgumentException("need " + Wire.HIST_BUCKETS + " buckets");
        this.counts = counts.clone();
    }

    public static HandlerHistogram empty() {
        return new HandlerHistogram(new long[Wire.HIST_BUCKETS]);
    }

    public long[] counts() {
        return counts.clone();
    }

    public long total() {
        return Arrays.stream(counts).sum();
    }

    /** Exclusive upper bound of bucket i, in ns. */
    public static long upperBoundNs(int bucket) {
        if (bucket < Wire.HIST_LINEAR) return (long) (bucket + 1) * Wire.HIST_LINEAR_NS;
        return ((long) Wire.HIST_LINEAR * Wire.HIST_LINEAR_NS) << (bucket - Wire.HIST_LINEAR + 1);
    }

    /** The upper bound of the bucket holding the q-quantile (0 < q <= 1), or 0 when empty. */
    public long quantileNs(double q) {
        long total = total();
        if (total == 0) return 0;
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) return upperBoundNs(i);
        }
        return upperBoundNs(counts.length - 1);
    }

    /** The upper bound of the highest non-empty bucket, or 0. */
    public long maxNs() {
        for (int i = counts.length - 1; i >= 0; i--) if (counts[i] != 0) return upperBoundNs(i);
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HandlerHistogram h && Arrays.equals(counts, h.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "HandlerHistogram[total=" + total() + ", median=" + quantileNs(0.5) + "ns, max=" + maxNs() + "ns]";
    }
}
