package org.ompprof.sampler.launch;

import java.io.PrintStream;
import java.util.Locale;

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
        err.print("\rompprof: "
                + String.format(
                        Locale.ROOT,
                        "%.1f s, %s, %s samples, %s dropped",
                        seconds,
                        plural(threads, "thread"),
                        count(samples),
                        count(dropped))
                + "\033[K");
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
        return String.format(
                Locale.ROOT,
                "ompprof: recorded %s, %s samples (%s dropped) in %.2f s -> %s (%s)",
                plural(threads, "thread"),
                count(samples),
                count(dropped),
                seconds,
                output,
                size(bytes));
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
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
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
