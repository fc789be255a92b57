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
        String script = String.join("\n",
                "set -e",
                "cd " + DIR,
                "cp " + full + " full",
                "objcopy --only-keep-debug full linked.debug",
                "strip -g --strip-unneeded -o linked full",
                "objcopy --add-gnu-debuglink=linked.debug linked",
                "nm -D full --format=posix --defined-only | awk '{print $1}' | sort > dynsyms",
                "nm full --format=posix --defined-only | awk '{ if ($2 == \"T\" || $2 == \"t\" || $2 == \"D\") print $1 }' | sort > funcsyms",
                "comm -13 dynsyms funcsyms > keep_symbols",
                "objcopy --only-keep-debug full mini.full-debug",
                "objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=keep_symbols mini.full-debug mini_debuginfo",
                "rm -f mini_debuginfo.xz && xz mini_debuginfo",
                "strip --strip-all -o mini full",
                "objcopy --add-section .gnu_debugdata=mini_debuginfo.xz mini",
                "strip --strip-all -o bare full",
                "rm -rf debugroot",
                "id=$(readelf -n full | sed -n 's/.*Build ID: *//p')",
                "test -n \"$id\"",
                "mkdir -p debugroot/.build-id/$(echo $id | cut -c1-2)",
                "objcopy --only-keep-debug full debugroot/.build-id/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-).debug");
        Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, log);
    }

    @ParameterizedTest
    @ValueSource(strings = {"linked", "mini", "bare"})
    void staticFunctionsNamed(String variant, @org.junit.jupiter.api.io.TempDir Path work) throws Exception {
        Path profile = work.resolve(variant + ".ompprof");
        // The build-id debug file lies under a stand-in for /usr/lib/debug.
        Map<String, String> env = new HashMap<>(Map.of("OMP_NUM_THREADS", "2",
                "JAVA_TOOL_OPTIONS", "-Dompprof.debugRoot=" + DIR.resolve("debugroot")));
        Ompprof.Result r = Ompprof.run(work, env, "record", "-o", profile.toString(), "--", DIR.resolve(variant).toString());
        assertEquals(0, r.status(), r.err());
        Ompprof.Result e = Ompprof.run(work, Map.of(), "export", "--format", "collapsed", "-o", "-", profile.toString());
        assertEquals(0, e.status(), e.err());
        List<String> stacks = e.out().lines().toList();
        long leaf = stacks.stream().filter(l -> l.contains("hidden_middle;hidden_leaf")).count();
        assertTrue(leaf > 0, variant + ": no hidden_middle;hidden_leaf in\n" + e.out());
    }

    @org.junit.jupiter.api.Test
    void infoCountsUnnamedFramesPerModule(@org.junit.jupiter.api.io.TempDir Path work) throws Exception {
        Path profile = work.resolve("bare.ompprof");
        Ompprof.Result r = Ompprof.run(work, Map.of("OMP_NUM_THREADS", "2"), "record", "-o", profile.toString(), "--",
                DIR.resolve("bare").toString());
        assertEquals(0, r.status(), r.err());
        Ompprof.Result info = Ompprof.run(work, Map.of(), "info", profile.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(info.out().lines().anyMatch(l -> l.matches("\\s+\\d+ unnamed frames? in " + java.util.regex.Pattern.quote(DIR.resolve("bare").toString()))),
                info.out());
    }
}
