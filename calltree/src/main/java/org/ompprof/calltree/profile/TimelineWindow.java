package org.ompprof.calltree.profile;

import org.ompprof.blame.SortedLongs;

/**
 * Picks what a timeline lane shows at a given zoom: for each of {@code pixels} columns over the
 * time window [from, to), the sample in effect at the column's start, or -1 where none is. A sample
 * stands for the time before it (its weight: the CPU or wall time since the thread's previous one),
 * so the one in effect is the first taken at or after the column (see {@code start}), as in the
 * trace exports. One binary search per column, so drawing 10 million samples costs what the screen
 * is wide, not what the recording is long.
 */
public final class TimelineWindow {
    private TimelineWindow() {}

    /**
     * Sample index per column; -1 where no sample stands for the time (before the thread's first sample's weight, after
     * its last sample).
     */
    public static int[] samplePerPixel(Timeline t, long from, long to, int pixels) {
        if (pixels <= 0) throw new IllegalArgumentException("an empty window");
        return fill(t, from, to, new int[pixels]);
    }

    /**
     * As {@link #samplePerPixel(Timeline, long, long, int)} into {@code out} (one entry per column), so a view can
     * reuse it.
     */
    public static int[] fill(Timeline t, long from, long to, int[] out) {
        if (out.length == 0 || to <= from) throw new IllegalArgumentException("an empty window");
        long[] times = t.times();
        int pixels = out.length;
        for (int px = 0; px < pixels; px++) {
            long at = from + (to - from) * px / pixels;
            int idx = SortedLongs.firstAtOrAfter(times, 0, times.length, at);
            out[px] = idx < times.length && at >= start(t, times, idx) ? idx : -1;
        }
        return out;
    }

    /**
     * Where sample {@code i} starts being in effect: at the previous sample when that came within two
     * of its weights (timer jitter must not draw holes into a busy lane), else its weight before it.
     */
    private static long start(Timeline t, long[] times, int i) {
        long w = Math.max(1, t.weightNs(i));
        if (i > 0 && times[i] - times[i - 1] <= 2 * w) return times[i - 1];
        return times[i] - w;
    }
}
