package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sites (see its source): regions opened in one function are rows of their own in the report, each counted
 * with every instance the runtime opened (the one from a call seldom sampled included); the waiting in one is
 * blamed on its own work (the busiest line of the region's own code when that is where it is), not on a region the
 * function opens after it; and the function is named as called from
 * the line that called it, not from its caller's busiest line. The 4-thread case runs twice as many threads as
 * this machine's cores.
 */
class SitesEndToEndTest {
    private static final int ROUNDS = 20;
    private static final Pattern ROW =
            Pattern.compile("region opened in (\\S+) \\(sites\\.c:(\\d+)\\), (\\d+) instances?");

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void regionsAreTheirConstructsCountedInAllAndBlamedOnTheirOwnWork(int threads) throws Exception {
        Path profile = work.resolve("sites-" + threads + ".ompprof");
        Ompprof.Result run = Ompprof.record(
                work, threads, profile, CPrograms.clang("sites").toString(), "0.002", Integer.toString(ROUNDS));
        assertEquals(0, run.status(), run.err());
        Ompprof.Result r = Ompprof.read("report", profile.toString());
        assertEquals(0, r.status(), r.err());
        String report = r.out();

        Map<Integer, String> rows = new TreeMap<>(); // construct line -> "context, instances"
        Matcher m = ROW.matcher(report);
        while (m.find()) rows.put(Integer.parseInt(m.group(2)), m.group(1) + ", " + m.group(3));
        assertEquals(
                Map.of(
                        line("/* light */"), "main;phase, " + (ROUNDS + 1),
                        line("/* heavy */"), "main;phase, " + (ROUNDS + 1),
                        line("/* own */"), "main;phase, " + (ROUNDS + 1),
                        line("/* helper */"), "main;phase;helper, " + (ROUNDS + 1)),
                rows,
                report);

        String heavy = barrierFinding(report, "/* heavy */");
        assertTrue(heavy.contains("opened in phase called from main at sites.c:" + line("/* loop */")), heavy);
        assertTrue(heavy.contains("imbalance, caused by spin_for() called from heavy()"), heavy);
        String own = barrierFinding(report, "/* own */");
        assertTrue(
                own.endsWith("imbalance, caused by the region's own code (not its calls), busiest at sites.c:"
                        + line("/* own loop */")),
                own);
    }

    /**
     * Two regions in an if's branches that clang -O2 makes one fork call choosing its outlined body (one_fork_site.c;
     * HPCCG's ddot): the runtime counts them as one region of that call site, 3 instances a step (12,000 in all); the
     * report's entry names both constructs, where it named one (the other's 2 of 3 instances then read as its).
     */
    @Test
    void oneCallSiteOfTwoConstructsNamesBoth() throws Exception {
        Path profile = work.resolve("one_fork_site.ompprof");
        Ompprof.Result run = Ompprof.record(
                work, 2, profile, CPrograms.clangRelease("one_fork_site").toString(), "200");
        assertEquals(0, run.status(), run.err());
        List<Integer> lines = CPrograms.pragmas("one_fork_site", "parallel for");
        String report = Ompprof.read("report", profile.toString()).out();
        assertTrue(
                report.contains("12000 instances: parallel at one_fork_site.c:" + lines.get(0)
                        + " or parallel at one_fork_site.c:" + lines.get(1) + " (one call site)"),
                report);
    }

    /** The report's finding on the barrier waiting in the region at the line marked {@code region}. */
    private static String barrierFinding(String report, String region) throws Exception {
        String at = "barrier waiting in the parallel region at sites.c:" + line(region);
        return report.lines()
                .filter(l -> l.contains(at))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no finding on " + region + "'s waiting: " + report));
    }

    /** The line of sites.c that holds {@code marker}. */
    private static int line(String marker) {
        return CPrograms.lines("sites", l -> l.contains(marker)).getFirst();
    }
}
