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

    /**
     * As {@link #firstAtOrAfter(long[], int, int, long)}, searched outward from {@code hint} (in [from, to]) in steps
     * that double: a caller whose answers lie near one another (blame asks of each thread at moment after moment)
     * pays for the distance from its last answer, not for the range.
     */
    public static int firstAtOrAfter(long[] a, int from, int to, int hint, long v) {
        if (hint < to && a[hint] < v) { // the answer lies above the hint
            int step = 1;
            while (hint + step < to && a[hint + step] < v) step <<= 1;
            return firstAtOrAfter(a, hint + (step >> 1) + 1, Math.min(hint + step, to), v);
        }
        int step = 1; // at or below: a[hint] >= v, or hint is to
        while (hint - step >= from && a[hint - step] >= v) step <<= 1;
        return firstAtOrAfter(a, Math.max(from, hint - step), hint - (step >> 1), v);
    }
}
