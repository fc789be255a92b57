package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Metric totals of a profile read back through {@code ompprof export --format collapsed}, as a user would. */
final class BlameTotals {
    private BlameTotals() {}

    /** The metric's total in ms over all threads' paths that contain {@code frame}. */
    static double totalMs(Path work, Path profile, String metric, String frame) throws Exception {
        Ompprof.Result r = Ompprof.run(work, Map.of(), "export", "--format", "collapsed", "--metric", metric, profile.toString());
        assertEquals(0, r.status(), r.err());
        return r.out().lines().filter(l -> List.of(l.substring(0, l.lastIndexOf(' ')).split(";")).contains(frame))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum() / 1e6;
    }
}
