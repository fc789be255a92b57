package org.ompprof.unwinder.symbols;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ompprof.unwinder.cfi.TestProcesses;

/**
 * Builds stripped.c (clang-19 -O2 -g) and the three ways distributions keep what stripping
 * removes: a debuglink debug file, MiniDebugInfo, and a build-id debug file under a debug root.
 */
public final class StrippedFixture {
    private static final Path SOURCE = Path.of("src/test/c/stripped.c").toAbsolutePath();
    /** The script that makes the three variants (the ui module's end-to-end test runs it too). */
    public static final Path STRIP_VARIANTS =
            Path.of("src/test/sh/strip-variants.sh").toAbsolutePath();

    /**
     * @param full the unstripped program; @param linked stripped, with .gnu_debuglink to a file beside it;
     * @param mini stripped, with .gnu_debugdata; @param bare stripped, nothing kept beside it;
     * @param debugRoot a /usr/lib/debug stand-in holding {@code .build-id/xx/yyyy.debug} for {@code bare}
     */
    public record Binaries(Path full, Path linked, Path mini, Path bare, Path debugRoot) {}

    private StrippedFixture() {}

    /** Builds into {@code dir}; needs clang-19, binutils (objcopy, strip, nm) and xz. */
    public static Binaries build(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path full = dir.resolve("full"), root = dir.resolve("debugroot");
        TestProcesses.run(List.of(
                "clang-19",
                "-O2",
                "-g",
                "-fno-omit-frame-pointer",
                "-Wl,--build-id",
                "-o",
                full.toString(),
                SOURCE.toString()));
        TestProcesses.run(List.of("sh", STRIP_VARIANTS.toString(), dir.toString()));
        return new Binaries(full, dir.resolve("linked"), dir.resolve("mini"), dir.resolve("bare"), root);
    }
}
