package org.ompprof.sampler.launch;

import java.io.PrintStream;

/**
 * What the user sees on stderr: a live line (only on a terminal), and one summary at the end.
 */
final class Progress {
    private final PrintStream err;
    private final boolean live;
    private boolean shown;

    Progress(PrintStream err, boolean live) {
        this.err = err;
        this.live = live;
    }

    void update(double seconds, int threads, long samples, long dropped) {
        if (!live) return;
        err.print("\rompprof: " + Decimals.fixed(seconds, 1) + " s, " + plural(threads, "thread") + ", "
                + count(samples) + " samples, " + count(dropped) + " dropped\033[K");
        err.flush();
        shown = true;
    }

    /** Removes the live line so the next message starts clean. */
    void clear() {
        if (!shown) return;
        err.print("\r\033[K");
        err.flush();
        shown = false;
    }

    static String summary(int threads, long samples, long dropped, double seconds, String output, long bytes) {
        return "ompprof: recorded " + plural(threads, "thread") + ", " + count(samples) + " samples (" + count(dropped)
                + " dropped) in " + Decimals.fixed(seconds, 2) + " s -> " + output + " (" + size(bytes) + ")";
    }

    static String count(long n) {
        return Decimals.grouped(n);
    }

    static String plural(long n, String word) {
        return count(n) + " " + word + (n == 1 ? "" : "s");
    }

    /** Decimal units, one decimal: 2.1 MB. */
    static String size(long bytes) {
        if (bytes < 1000) return bytes + " B";
        String[] units = {"kB", "MB", "GB", "TB"};
        double v = bytes;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return Decimals.fixed(v, 1) + " " + units[u];
    }
}
