package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names as their programmers write them, through the whole product (record, profile file,
 * export, report, info): C++ demangled, libstdc++'s symbol-table names included; a parallel
 * region as {@code parallel at FILE:LINE} of its pragma (clang and gfortran), its compiler's
 * symbol in {@code info}; a gfortran module procedure as {@code solver::relax} under the
 * program's own name; and no frame of ompprof's agent under the program's code. No mangled or
 * linker's name may appear at all; at least 95% of the known leaf's samples must sit under the
 * exact expected path (as in KnownPathsEndToEndTest: a few samples land under {@code <truncated>}
 * when an unwind stops early, which is the stitcher's business, not the names'). Names do not
 * depend on timing, so one (quiet) variant proves them.
 */
class NamesEndToEndTest {
    private static final double TOLERANCE = 0.95;
    private static final Map<String, String> TWO_THREADS = Map.of("OMP_NUM_THREADS", "2");
    /** names_stream.cc: the line of its {@code #pragma omp parallel}. */
    private static final int STREAM_PRAGMA = 21;
    /** names_heat.f90: the line of its {@code !$omp parallel do}. */
    private static final int HEAT_PRAGMA = 12;

    @TempDir
    Path work;

    private Path record(String name, Path program) throws Exception {
        Path profile = work.resolve(name + ".ompprof");
        Ompprof.Result r =
                Ompprof.run(work, TWO_THREADS, "record", "-o", profile.toString(), "--", program.toString(), "0.6");
        assertEquals(0, r.status(), r.err());
        return profile;
    }

    private String collapsed(Path profile) throws Exception {
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertEquals(0, r.status(), r.err());
        return r.out();
    }

    /**
     * At least {@code minSamples} samples pass through the last frame of {@code expected}, and
     * {@link #TOLERANCE} of them reach it exactly by that path from the root.
     */
    private static void assertMostlyUnder(String collapsed, List<String> expected, long minSamples) {
        long through = 0, exact = 0;
        for (CollapsedLine line : CollapsedLine.all(collapsed)) {
            List<String> f = line.frames();
            int at = f.indexOf(expected.getLast());
            if (at < 0) continue;
            through += line.weight();
            if (f.subList(0, at + 1).equals(expected)) exact += line.weight();
        }
        assertTrue(through >= minSamples, "only " + through + " samples in " + expected.getLast() + "\n" + collapsed);
        assertTrue(
                exact >= TOLERANCE * through,
                exact + " of " + through + " samples of " + expected.getLast() + " under " + expected + "\n"
                        + collapsed);
    }

    /** No agent frame anywhere but as the root placeholder {@code <ompprof>}. */
    private static void assertNoAgentFrames(String collapsed) {
        for (String line : collapsed.lines().toList()) {
            List<String> f = CollapsedLine.of(line).frames();
            assertFalse(
                    f.contains("tool_initialize") || f.contains("modules_rescan") || line.contains("libompprof"), line);
            assertTrue(!f.contains("<ompprof>") || f.size() == 1, "the agent's frames are one root <ompprof>: " + line);
        }
    }

    @Test
    void cxxNamesAreDemangledAndTheRegionIsItsPragma() throws Exception {
        Path profile = record("stream", CPrograms.cxx("names_stream"));
        String out = collapsed(profile);
        List<String> expected = List.of(
                "main",
                "parallel at names_stream.cc:" + STREAM_PRAGMA,
                "format_numbers(double)",
                "std::ostream::operator<<(double)",
                "std::ostream& std::ostream::_M_insert<double>(double)");
        for (String line : out.lines().toList()) {
            for (String frame : CollapsedLine.of(line).frames())
                assertFalse(frame.startsWith("_Z"), "a mangled name: " + line);
        }
        assertMostlyUnder(out, expected, 100);
        assertNoAgentFrames(out);
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(
                info.out().contains("parallel at names_stream.cc:" + STREAM_PRAGMA + "  =  main.omp_outlined"),
                "info shows the compiler's symbol of the region\n" + info.out());
        Ompprof.Result report = Ompprof.read("report", profile.toString());
        assertEquals(0, report.status(), report.err());
        assertTrue(
                report.out().contains("main;parallel at names_stream.cc:" + STREAM_PRAGMA + ";format_numbers(double)"),
                report.out());
        assertFalse(report.out().contains("_ZN"), report.out());
    }

    @Test
    void gfortranModuleProcedureUnderTheProgramsName() throws Exception {
        Path profile = record("heat", CPrograms.gfortran("names_heat"));
        String out = collapsed(profile);
        List<String> expected =
                List.of("main", "names_heat", "solver::relax", "parallel at names_heat.f90:" + HEAT_PRAGMA);
        for (String line : out.lines().toList()) {
            assertFalse(
                    line.contains("MAIN__") || line.contains("_MOD_") || line.contains("_omp_fn"),
                    "a linker's name: " + line);
        }
        assertMostlyUnder(out, expected, 50);
        assertNoAgentFrames(out);
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        assertTrue(
                info.out().contains("parallel at names_heat.f90:" + HEAT_PRAGMA + "  =  __solver_MOD_relax._omp_fn.0"),
                info.out());
    }

    /**
     * Built without debug info, the region has no file or line to be named by: it is named after the procedure it was
     * outlined from, as that procedure's own frame is ({@code solver::relax}), never by a linker's name.
     */
    @Test
    void gfortranRegionWithoutDebugInfoIsNamedAfterItsProcedure() throws Exception {
        Path profile = record("heat-nodebug", CPrograms.gfortranWithoutDebugInfo("names_heat"));
        String out = collapsed(profile);
        for (String line : out.lines().toList()) {
            assertFalse(line.contains("_MOD_") || line.contains("_omp_fn"), "a linker's name: " + line);
        }
        List<String> expected = List.of("main", "program", "solver::relax", "parallel in solver::relax");
        assertMostlyUnder(out, expected, 50);
        assertNoAgentFrames(out);
    }
}
