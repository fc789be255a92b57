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
        TestProcesses.run(List.of("clang-19", "-O2", "-g", "-fno-omit-frame-pointer", "-Wl,--build-id", "-o", full.toString(), SOURCE.toString()));
        String script = String.join("\n",
                "set -e",
                "cd " + dir,
                // (a) debuglink: debug file beside the stripped program
                "objcopy --only-keep-debug full linked.debug",
                "strip --strip-debug --strip-unneeded -o linked full",
                "objcopy --add-gnu-debuglink=linked.debug linked",
                // (b) MiniDebugInfo as Fedora's find-debuginfo and Debian's dh_strip make it
                "nm -D full --format=posix --defined-only | awk '{print $1}' | sort > dynsyms",
                "nm full --format=posix --defined-only | awk '{ if ($2 == \"T\" || $2 == \"t\" || $2 == \"D\") print $1 }' | sort > funcsyms",
                "comm -13 dynsyms funcsyms > keep_symbols",
                "objcopy --only-keep-debug full mini.full-debug",
                "objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=keep_symbols mini.full-debug mini_debuginfo",
                "rm -f mini_debuginfo.xz && xz mini_debuginfo",
                "strip --strip-all -o mini full",
                "objcopy --add-section .gnu_debugdata=mini_debuginfo.xz mini",
                // (c) build id: the debug file under ROOT/.build-id/xx/yyyy.debug
                "strip --strip-all -o bare full",
                "id=$(readelf -n full | sed -n 's/.*Build ID: *//p')",
                "mkdir -p debugroot/.build-id/$(echo $id | cut -c1-2)",
                "objcopy --only-keep-debug full debugroot/.build-id/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-).debug");
        TestProcesses.run(List.of("sh", "-c", script));
        return new Binaries(full, dir.resolve("linked"), dir.resolve("mini"), dir.resolve("bare"), root);
    }
}
