package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;

/** Builds symbols.c once per JVM (clang-19 -O2 -g), plus a stripped copy and one without build id. */
public final class SymbolsFixture {
    private static final Path SOURCE = Path.of("src/test/c/symbols.c").toAbsolutePath();
    private static final Path WORK = Path.of("target/symbols").toAbsolutePath();
    private static Binaries built;

    /** @param debug -O2 -g; @param stripped the same, stripped; @param noBuildId -O2 -g without a build id */
    public record Binaries(Path debug, Path stripped, Path noBuildId, Path source) {}

    private SymbolsFixture() {}

    public static synchronized Binaries binaries() throws IOException, InterruptedException {
        if (built != null) return built;
        assumeTrue(TestProcesses.onPath("clang-19"), "clang-19 is not installed");
        Files.createDirectories(WORK);
        Path debug = WORK.resolve("symbols-debug"),
                stripped = WORK.resolve("symbols-stripped"),
                noId = WORK.resolve("symbols-noid");
        TestProcesses.run(
                List.of("clang-19", "-O2", "-g", "-Wl,--build-id", "-o", debug.toString(), SOURCE.toString()));
        TestProcesses.run(
                List.of("clang-19", "-O2", "-g", "-Wl,--build-id=none", "-o", noId.toString(), SOURCE.toString()));
        String strip = TestProcesses.onPath("llvm-strip-19") ? "llvm-strip-19" : "strip";
        TestProcesses.run(List.of(strip, "-o", stripped.toString(), debug.toString()));
        built = new Binaries(debug, stripped, noId, SOURCE);
        return built;
    }

    /** The 1-based line of {@code symbols.c} carrying the marker {@code LINE:name}. */
    public static int line(String marker) throws IOException {
        List<String> lines = Files.readAllLines(SOURCE);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("LINE:" + marker + " ")) return i + 1;
        }
        throw new AssertionError("no marker LINE:" + marker + " in " + SOURCE);
    }

    public static Symbol symbol(ElfFile elf, String name) {
        return elf.symbols().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no symbol " + name));
    }

    /** Every address of {@code [start, end)}. */
    public static long[] range(long start, long end) {
        List<Long> out = new ArrayList<>();
        for (long pc = start; pc < end; pc++) out.add(pc);
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
