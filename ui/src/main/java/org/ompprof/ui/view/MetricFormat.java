package org.ompprof.ui.view;

import java.util.Locale;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.MetricUnit;

/** Values as people read them: times scaled to s, ms or us; counts with separators; shares in percent. */
final class MetricFormat {
    private MetricFormat() {}

    static String value(Metric m, long v) {
        if (v == 0) return "";
        if (m.unit() == MetricUnit.COUNT) return String.format(Locale.ROOT, "%,d", v);
        return time(v);
    }

    static String time(long ns) {
        double a = Math.abs(ns);
        if (a >= 1e9) return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
        if (a >= 1e6) return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        if (a >= 1e3) return String.format(Locale.ROOT, "%.0f us", ns / 1e3);
        return ns + " ns";
    }

    static String percent(long part, long whole) {
        if (whole == 0 || part == 0) return "";
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    /** {@code 1.23 s  45.6%}: a value and its share of the metric's total. */
    static String withShare(Metric m, long v, long total) {
        if (v == 0) return "";
        return value(m, v) + "  " + percent(v, total);
    }
}
