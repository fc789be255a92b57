package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stripped OpenMP program keeps its static functions' names in the profile when a
 * distribution's way of keeping them is at hand: a .gnu_debuglink debug file beside it,
 * MiniDebugInfo (.gnu_debugdata) inside it, or a build-id debug file under the debug root
 * (moved to a temporary directory with -Dompprof.debugRoot).
 */
class StrippedEndToEndTest {
    private static final Path DIR = Path.of("target/stripped-e2e").toAbsolutePath();

    @BeforeAll
    static void strip() throws Exception {
        Path full = CPrograms.clang("stripped_omp");
        Files.createDirectories(DIR);
        Files.copy(full, DIR.resolve("full"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // the stripping the unwinder's tests do too, in one script
        Path script = Path.of("../unwinder/src/test/sh/strip-variants.sh")
                .toAbsolutePath()
                .normalize();
        Process p = new ProcessBuilder("sh", script.toString(), DIR.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, log);
    }

    @ParameterizedTest
    @ValueSource(strings = {"linked", "mini", "bare"})
    void staticFunctionsNamed(String variant, @org.junit.jupiter.api.io.TempDir Path work) throws Exception {
        Path profile = work.resolve(variant + ".ompprof");
        // The build-id debug file lies under a stand-in for /usr/lib/debug.
        Map<String, String> env = new HashMap<>(
                Map.of("OMP_NUM_THREADS", "2", "JAVA_TOOL_OPTIONS", "-Dompprof.debugRoot=" + DIR.resolve("debugroot")));
        Ompprof.Result r = Ompprof.run(
                work,
                env,
                "record",
                "-o",
                profile.toString(),
                "--",
                DIR.resolve(variant).toString());
        assertEquals(0, r.status(), r.err());
        Ompprof.Result e = Ompprof.read("export", "--format", "collapsed", "-o", "-", profile.toString());
        assertEquals(0, e.status(), e.err());
        List<String> stacks = e.out().lines().toList();
        long leaf = stacks.stream()
                .filter(l -> l.contains("hidden_middle;hidden_leaf"))
                .count();
        assertTrue(leaf > 0, variant + ": no hidden_middle;hidden_leaf in\n" + e.out());
    }

    @org.junit.jupiter.api.Test
    void infoCountsUnnamedFramesPerModule(@org.junit.jupiter.api.io.TempDir Path work) throws Exception {
        Path profile = work.resolve("bare.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                profile.toString(),
                "--",
                DIR.resolve("bare").toString());
        assertEquals(0, r.status(), r.err());
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(
                info.out()
                        .lines()
                        .anyMatch(l -> l.matches("\\s+\\d+ unnamed frames? in "
                                + java.util.regex.Pattern.quote(
                                        DIR.resolve("bare").toString()))),
                info.out());
    }
}
