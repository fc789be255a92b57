package org.ompprof.blame;

/** Searches in ascending {@code long} arrays with repeated values, such as a timeline's sample times. */
public final class SortedLongs {
    private SortedLongs() {}

    /** The first index in [from, to) whose value is at least {@code v} ({@code to} if none): a lower bound. */
    public static int firstAtOrAfter(long[] a, int from, int to, long v) {
        int lo = from, hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
