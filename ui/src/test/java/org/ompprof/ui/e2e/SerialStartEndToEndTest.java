package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The program's serial start, before its first OpenMP construct (serial_start.c: {@value #SERIAL_MS} ms of CPU
 * time, then a {@value #SLEEP_MS} ms sleep, then a region of {@value #PAR_MS} ms of CPU time on every thread). The
 * agent that libomp loaded at that construct never saw it: Rodinia's pathfinder showed none of its two-second init,
 * and the report's shares left it out. Each leaf must weigh at least 80% of its known time (sampling), at most three
 * times it (a loaded machine); the sleep, sampled from outside, must not be cut short; in both modes.
 */
class SerialStartEndToEndTest {
    private static final int SERIAL_MS = 300;
    private static final int SLEEP_MS = 300;
    private static final int PAR_MS = 200;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(strings = {"wall", "cpu"})
    void theSerialStartIsSampled(String mode) throws Exception {
        Path profile = work.resolve(mode + ".ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "--mode",
                mode,
                "-o",
                profile.toString(),
                "--",
                CPrograms.clangRelease("serial_start").toString(),
                String.valueOf(SERIAL_MS),
                String.valueOf(SLEEP_MS),
                String.valueOf(PAR_MS));
        assertEquals(0, rec.status(), rec.err());
        assertTrue(rec.out().contains("the sleep interrupted 0 times"), "the sleep is never cut short: " + rec.out());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--metric", "time", profile.toString());
        assertEquals(0, r.status(), r.err());
        String collapsed = r.out();
        assertAbout(collapsed, "main;serial_setup", SERIAL_MS);
        if (mode.equals("wall")) assertAbout(collapsed, "main;serial_sleep", SLEEP_MS); // cpu mode: a sleep takes none
        assertAbout(
                collapsed,
                "main;parallel at serial_start.c:" + CPrograms.pragma("serial_start", "parallel") + ";parallel_work",
                2.0 * PAR_MS);
    }

    /** The time of every path under {@code prefix}, about {@code knownMs}. */
    private static void assertAbout(String collapsed, String prefix, double knownMs) {
        double ms = CollapsedLine.all(collapsed).stream()
                .filter(l -> String.join(";", l.frames()).equals(prefix)
                        || String.join(";", l.frames()).startsWith(prefix + ";"))
                .mapToDouble(CollapsedLine::ms)
                .sum();
        assertTrue(
                ms >= 0.8 * knownMs && ms <= 3 * knownMs,
                String.format("%.0f ms under %s, %.0f ms known%n%s", ms, prefix, knownMs, collapsed));
    }
}
