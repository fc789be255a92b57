package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deep stacks at default settings (issue 15): deep_stacks.c's six 48 KiB frames and its 300-deep
 * recursion, built with clang and with gcc, recorded and exported. On the initial thread at least
 * 95% of the samples in leaf lie exactly under main;run;descend x6;leaf or main;deep;recurse x301;spin;leaf;
 * no sample of the run is cut ({@code <truncated>}).
 */
class DeepStacksEndToEndTest {
    private static final double TOLERANCE = 0.95;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(strings = {"clang", "gcc"})
    void deepPathsAreWhole(String compiler) throws Exception {
        Path program = compiler.equals("gcc") ? CPrograms.gcc("deep_stacks") : CPrograms.clang("deep_stacks");
        Path profile = work.resolve("deep.ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                profile.toString(),
                "--",
                program.toString(),
                "0.5");
        assertEquals(0, rec.status(), rec.err());
        Ompprof.Result r = Ompprof.read("export", "--format", "collapsed", "--thread", "1", profile.toString());
        assertEquals(0, r.status(), r.err());
        List<String> big = new ArrayList<>(List.of("main", "run"));
        big.addAll(Collections.nCopies(6, "descend"));
        big.add("leaf");
        List<String> recursion = new ArrayList<>(List.of("main", "deep"));
        recursion.addAll(Collections.nCopies(301, "recurse"));
        recursion.add("spin");
        recursion.add("leaf");
        long[] inLeaf = new long[2], exact = new long[2];
        long truncated = 0;
        for (CollapsedLine line : CollapsedLine.all(r.out())) {
            List<String> frames = line.frames();
            long weight = line.weight();
            if (frames.contains("<truncated>")) truncated += weight;
            List<List<String>> paths = List.of(big, recursion);
            for (int k = 0; k < 2; k++) {
                // both end in leaf: each is told by its caller under main (run, deep)
                int at = frames.indexOf(paths.get(k).getLast());
                if (at < 0 || !frames.contains(paths.get(k).get(1))) continue;
                inLeaf[k] += weight;
                if (frames.subList(0, at + 1).equals(paths.get(k))) exact[k] += weight;
            }
        }
        String info = Ompprof.read("info", profile.toString()).out();
        for (int k = 0; k < 2; k++) {
            // 0.5 s at 1 kHz; a loaded machine delivers fewer
            assertTrue(inLeaf[k] >= 60, compiler + ": only " + inLeaf[k] + " samples in path " + k + "\n" + info);
            assertTrue(
                    exact[k] >= TOLERANCE * inLeaf[k],
                    compiler + ": " + exact[k] + " of " + inLeaf[k] + " samples on path " + k + "\n" + r.out());
        }
        assertEquals(0, truncated, compiler + ": samples cut\n" + r.out());
        assertTrue(info.contains("bytes per sample in the rings"), info);
    }
}
