package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Metric totals of a profile read back through {@code ompprof export --format collapsed}, as a user would. */
final class BlameTotals {
    private BlameTotals() {}

    /** The metric's total in ms over all threads' paths that contain {@code frame}. */
    static double totalMs(Path work, Path profile, String metric, String frame) throws Exception {
        return totalMs(work, profile, metric, 0, frame);
    }

    /**
     * The metric's total in ms, over all paths of one thread (0: all threads), only paths containing {@code frame}
     * unless null.
     */
    static double totalMs(Path work, Path profile, String metric, int thread, String frame) throws Exception {
        return totalWhereMs(work, profile, metric, thread, path -> frame == null || path.contains(frame));
    }

    /** The metric's total in ms, over all paths of one thread (0: all threads) that {@code path} accepts. */
    static double totalWhereMs(Path work, Path profile, String metric, int thread, Predicate<List<String>> path)
            throws Exception {
        return totalWhere(profile, metric, thread, path) / 1e6;
    }

    /** The metric's total in its own unit (ns, or samples) over all threads' paths that contain {@code frame}. */
    static long total(Path profile, String metric, String frame) throws Exception {
        return totalWhere(profile, metric, 0, path -> path.contains(frame));
    }

    private static long totalWhere(Path profile, String metric, int thread, Predicate<List<String>> path)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("export", "--format", "collapsed", "--metric", metric));
        if (thread > 0) args.addAll(List.of("--thread", Integer.toString(thread)));
        args.add(profile.toString());
        Ompprof.Result r = Ompprof.read(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return CollapsedLine.all(r.out()).stream()
                .filter(l -> path.test(l.frames()))
                .mapToLong(CollapsedLine::weight)
                .sum();
    }
}
