package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bundled demo as a user runs it ({@code ompprof demo}), with 4 threads on this 2-core machine (so its critical
 * section is contended), in wall and in cpu mode: the findings name the program's own functions and lines as the
 * holder and the blamed code, never a frame of a system library or the runtime (the demo's holder spends most of its
 * hold in clock_gettime, in the vDSO under libc).
 */
class DemoFindingsEndToEndTest {
    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(strings = {"wall", "cpu"})
    void findingsNameTheProgramsCode(String mode) throws Exception {
        Map<String, String> threads = Map.of("OMP_NUM_THREADS", "4");
        Path dir = work.resolve("demo");
        Ompprof.Result demo = Ompprof.run(work, threads, "demo", dir.toString());
        assertEquals(0, demo.status(), demo.err());
        Path profile = dir.resolve("imbalance.ompprof");
        if (mode.equals("cpu")) {
            profile = work.resolve("cpu.ompprof");
            Ompprof.Result r = Ompprof.run(
                    work,
                    threads,
                    "record",
                    "--mode",
                    "cpu",
                    "-o",
                    profile.toString(),
                    "--",
                    dir.resolve("imbalance").toString());
            assertEquals(0, r.status(), r.err());
        }
        Ompprof.Result report = Ompprof.read("report", profile.toString());
        assertEquals(0, report.status(), report.err());
        String findings = report.out().substring(report.out().indexOf("findings, by cost"));
        // cpu mode sees the waiting only while the waiters spin: on a loaded machine they yield, and it may be too
        // little for a finding; when there is one, it names the holder as in wall mode
        boolean critical = findings.contains("critical at imbalance.c");
        assertTrue(critical || mode.equals("cpu"), "the contended critical is a finding: " + findings);
        if (critical)
            assertTrue(
                    Pattern.compile("critical at imbalance\\.c:\\d+: waiters lose [0-9.]+ m?s \\([0-9.]+% of thread "
                                    + "time\\), blamed on (update_table|now_s)\\(\\) called from (critical_phase|"
                                    + "update_table)\\(\\) at imbalance\\.c:\\d+ \\(holder\\)")
                            .matcher(findings)
                            .find(),
                    findings);
        FindingsNames.assertProgramsOwn(profile);
    }
}
