package org.ompprof.sampler.device;

import java.util.Arrays;
import java.util.List;

/**
 * Fits a device clock to the host clock from (host, device) pairs, robust to outliers: a pair
 * whose reading was delayed (the reading thread was preempted between the two clock reads) can
 * be off by milliseconds, and one such pair would tilt a plain least-squares line.
 *
 * <p>First a Theil–Sen line (median of pairwise slopes, median intercept) over at most
 * {@value #MAX_SEN_PAIRS} pairs spread evenly in time gives a fit no minority of outliers can
 * move; then pairs whose residual exceeds {@value #MAD_CUT} scaled median absolute deviations
 * are dropped and least squares over the rest refines it, since least squares averages the
 * jitter of the good pairs down where a median only picks one of them.
 */
public final class ClockFitter {
    static final int MAX_SEN_PAIRS = 256;
    static final double MAD_CUT = 3.0;
    /** Below this many nanoseconds of spread the residuals are clock resolution, not outliers. */
    private static final double MIN_SCALE_NS = 50.0;

    private ClockFitter() {}

    /** The fit for these pairs (any order); identity for none, a pure offset for one. */
    public static ClockFit fit(List<ClockPair> pairs) {
        int n = pairs.size();
        if (n == 0) return ClockFit.identity();
        ClockPair[] p = pairs.toArray(ClockPair[]::new);
        Arrays.sort(p, (a, b) -> Long.compare(a.deviceNs(), b.deviceNs()));
        long d0 = p[0].deviceNs(), h0 = p[0].hostNs();
        double[] x = new double[n], y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = p[i].deviceNs() - d0;
            y[i] = p[i].hostNs() - h0;
        }
        if (n == 1 || x[n - 1] == 0) return new ClockFit(d0, h0 + Math.round(median(y.clone())), 1.0, n, n);
        double[] line = theilSen(x, y);
        boolean[] keep = inliers(x, y, line);
        double[] refined = leastSquares(x, y, keep);
        int kept = 0;
        for (boolean k : keep) if (k) kept++;
        if (refined == null) refined = line;
        return new ClockFit(d0, h0 + Math.round(refined[0]), refined[1], kept, n);
    }

    /** {intercept, slope} of the Theil–Sen line through an evenly spread subset. */
    static double[] theilSen(double[] x, double[] y) {
        int n = x.length, m = Math.min(n, MAX_SEN_PAIRS);
        int[] pick = new int[m];
        for (int i = 0; i < m; i++) pick[i] = (int) ((long) i * (n - 1) / Math.max(1, m - 1));
        double[] slopes = new double[m * (m - 1) / 2];
        int s = 0;
        for (int i = 0; i < m; i++) {
            for (int j = i + 1; j < m; j++) {
                double dx = x[pick[j]] - x[pick[i]];
                if (dx != 0) slopes[s++] = (y[pick[j]] - y[pick[i]]) / dx;
            }
        }
        double slope = s == 0 ? 1.0 : median(Arrays.copyOf(slopes, s));
        double[] intercepts = new double[n];
        for (int i = 0; i < n; i++) intercepts[i] = y[i] - slope * x[i];
        return new double[] {median(intercepts), slope};
    }

    private static boolean[] inliers(double[] x, double[] y, double[] line) {
        int n = x.length;
        double[] res = new double[n];
        for (int i = 0; i < n; i++) res[i] = Math.abs(y[i] - line[0] - line[1] * x[i]);
        double scale = Math.max(MIN_SCALE_NS, 1.4826 * median(res.clone()));
        boolean[] keep = new boolean[n];
        for (int i = 0; i < n; i++) keep[i] = res[i] <= MAD_CUT * scale;
        return keep;
    }

    /** {intercept, slope} by least squares over the kept points, or null if they do not span an interval. */
    private static double[] leastSquares(double[] x, double[] y, boolean[] keep) {
        double sx = 0, sy = 0;
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            if (keep[i]) {
                sx += x[i];
                sy += y[i];
                k++;
            }
        }
        if (k < 2) return null;
        double mx = sx / k, my = sy / k, sxx = 0, sxy = 0;
        for (int i = 0; i < x.length; i++) {
            if (keep[i]) {
                sxx += (x[i] - mx) * (x[i] - mx);
                sxy += (x[i] - mx) * (y[i] - my);
            }
        }
        if (sxx == 0) return null;
        double slope = sxy / sxx;
        return new double[] {my - slope * mx, slope};
    }

    private static double median(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
