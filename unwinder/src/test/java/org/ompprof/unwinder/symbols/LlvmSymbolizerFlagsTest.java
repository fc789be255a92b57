package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An llvm-symbolizer whose installed path names a recent LLVM is started with its flags at once; any other is asked
 * {@code --help} first (LLVM 14, Debian's plain llvm-symbolizer here, has no {@code --no-debuginfod}). Fake symbolizers
 * note how they were run.
 */
class LlvmSymbolizerFlagsTest {
    @Test
    void theVersionIsReadFromTheNameOrTheInstalledPlace(@TempDir Path dir) throws IOException {
        assertEquals(19, LlvmSymbolizer.namedMajorVersion(Path.of("/nonexistent/llvm-symbolizer-19")));
        assertEquals(14, LlvmSymbolizer.namedMajorVersion(Path.of("/nonexistent/llvm-14/bin/llvm-symbolizer")));
        assertEquals(0, LlvmSymbolizer.namedMajorVersion(Path.of("/nonexistent/llvm-project/bin/llvm-symbolizer")));
        assertEquals(0, LlvmSymbolizer.namedMajorVersion(Path.of("/nonexistent/llvm-symbolizer")));
        Path installed = Files.createDirectories(dir.resolve("llvm-21/bin")).resolve("llvm-symbolizer");
        Files.writeString(installed, "");
        Path link = Files.createSymbolicLink(dir.resolve("llvm-symbolizer"), installed);
        assertEquals(21, LlvmSymbolizer.namedMajorVersion(link), "through the link to where it is installed");
    }

    @Test
    void aNamedRecentVersionStartsWithoutAskingForHelp(@TempDir Path dir) throws Exception {
        Path exe = fake(dir, "llvm-symbolizer-19", "styles: LLVM, GNU, JSON");
        try (LlvmSymbolizer s = LlvmSymbolizer.start(exe, Duration.ofSeconds(5))) {
            String run = runArguments(dir);
            assertTrue(run.contains("--output-style=JSON") && run.contains("--no-debuginfod"), run);
            assertFalse(Files.exists(dir.resolve("asked")), "--help was not asked");
        }
    }

    @Test
    void anUnnamedVersionIsAskedAndGetsOnlyTheFlagsItHas(@TempDir Path dir) throws Exception {
        Path exe = fake(dir, "llvm-symbolizer", "styles: LLVM, GNU, JSON");
        try (LlvmSymbolizer s = LlvmSymbolizer.start(exe, Duration.ofSeconds(5))) {
            String run = runArguments(dir);
            assertTrue(run.contains("--output-style=JSON") && !run.contains("--no-debuginfod"), run);
            assertTrue(Files.exists(dir.resolve("asked")), "--help was asked");
        }
    }

    @Test
    void anInstalledLlvmSymbolizerSymbolizes() throws Exception {
        // both kinds where this machine has them: llvm-symbolizer-19 (flags known), llvm-symbolizer (asked: LLVM 14
        // here)
        int ran = 0;
        for (String name : LlvmSymbolizer.EXECUTABLES) {
            Path exe = Path.of("/usr/bin", name);
            if (!Files.isExecutable(exe)) continue;
            ran++;
            try (LlvmSymbolizer s = LlvmSymbolizer.start(exe, Duration.ofSeconds(30))) {
                Path self = Path.of("/proc/self/exe").toRealPath();
                assertEquals(1, s.symbolize(self, new long[] {0x1000}).size(), name);
            }
        }
        assertTrue(ran > 0, "make test installs llvm-19's llvm-symbolizer-19");
    }

    /** A symbolizer that answers --help with {@code help} and notes that it was asked, and notes any other run. */
    private static Path fake(Path dir, String name, String help) throws IOException {
        Path script = dir.resolve(name);
        Files.writeString(
                script,
                "#!/bin/sh\ncd \"$(dirname \"$0\")\"\ncase \"$1\" in --help) touch asked; echo '" + help
                        + "'; exit 0;; esac\necho \"$@\" > run.tmp && mv run.tmp run\nexec sleep 600\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private static String runArguments(Path dir) throws Exception {
        Path run = dir.resolve("run");
        for (long end = System.nanoTime() + 10_000_000_000L; !Files.exists(run) && System.nanoTime() < end; )
            Thread.sleep(10);
        return Files.readString(run);
    }
}
