package org.ompprof.unwinder.stack;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.elf.ElfFile;

/**
 * Builds selfstack.c in several ways, runs each build once per scenario and turns the captures
 * into address spaces. Everything is cached for the JVM, so the test classes that share the
 * captures pay for compiling and running once.
 */
final class SelfStackFixture {
    /** What the result is checked against. */
    enum Oracle {
        /** glibc backtrace() unwinds the same stack with libgcc: pcs must agree exactly. */
        BACKTRACE,
        /** Program code has only .debug_frame, which libgcc does not read: check function names. */
        DEBUG_FRAME,
        /** Program code has no CFI at all: its rows are read from its machine code; check function names. */
        MACHINE_CODE
    }

    enum Build {
        CLANG_FP(Oracle.BACKTRACE, "clang-19", "-O2", "-g", "-fno-omit-frame-pointer"),
        CLANG_NOFP(Oracle.BACKTRACE, "clang-19", "-O2", "-g", "-fomit-frame-pointer"),
        GCC_FP(Oracle.BACKTRACE, "gcc", "-O2", "-g", "-fno-omit-frame-pointer"),
        GCC_NOFP(Oracle.BACKTRACE, "gcc", "-O2", "-g", "-fomit-frame-pointer"),
        CLANG_DEBUG_FRAME(
                Oracle.DEBUG_FRAME, "clang-19", "-O2", "-g", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables"),
        GCC_DEBUG_FRAME(
                Oracle.DEBUG_FRAME, "gcc", "-O2", "-g", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables"),
        GCC_NO_CFI_FP(
                Oracle.MACHINE_CODE,
                "gcc",
                "-O2",
                "-fno-omit-frame-pointer",
                "-fno-asynchronous-unwind-tables",
                "-fno-unwind-tables");

        final Oracle oracle;
        final List<String> command;

        Build(Oracle oracle, String... command) {
            this.oracle = oracle;
            this.command = List.of(command);
        }
    }

    enum Scenario {
        DIRECT,
        QSORT,
        SIGNAL
    }

    record Case(Build build, Scenario scenario) {
        @Override
        public String toString() {
            return build + "/" + scenario;
        }
    }

    private static final Path SOURCE = Path.of("src/test/c/selfstack.c");
    private static final Path WORK = Path.of("target/selfstack");
    private static final Map<Build, Path> BINARIES = new ConcurrentHashMap<>();
    private static final Map<Case, SelfStackCapture> CAPTURES = new ConcurrentHashMap<>();
    private static final Map<String, Loaded> FILES = new ConcurrentHashMap<>();

    private record Loaded(ElfFile elf, ModuleCfi cfi) {}

    private SelfStackFixture() {}

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (Build b : Build.values()) {
            for (Scenario s : Scenario.values()) out.add(new Case(b, s));
        }
        return out;
    }

    static synchronized SelfStackCapture capture(Case c) throws IOException, InterruptedException {
        SelfStackCapture cached = CAPTURES.get(c);
        if (cached != null) return cached;
        Path binary = binary(c.build());
        Path out = WORK.resolve(
                c.build().name().toLowerCase() + "-" + c.scenario().name().toLowerCase() + ".bin");
        run(List.of(binary.toString(), c.scenario().name().toLowerCase(), out.toString()));
        SelfStackCapture capture = SelfStackCapture.read(out);
        CAPTURES.put(c, capture);
        return capture;
    }

    private static Path binary(Build build) throws IOException, InterruptedException {
        Path existing = BINARIES.get(build);
        if (existing != null) return existing;
        assumeTrue(onPath(build.command.get(0)), build.command.get(0) + " is not installed");
        Files.createDirectories(WORK);
        Path binary = WORK.resolve("selfstack-" + build.name().toLowerCase()).toAbsolutePath();
        List<String> cmd = new ArrayList<>(build.command);
        cmd.addAll(List.of("-Wall", "-o", binary.toString(), SOURCE.toString()));
        run(cmd);
        BINARIES.put(build, binary);
        return binary;
    }

    private static boolean onPath(String tool) {
        return TestProcesses.onPath(tool);
    }

    static String run(List<String> cmd) throws IOException, InterruptedException {
        return TestProcesses.run(cmd);
    }

    /** The capture's modules; files are parsed once and their CFI (with its cache) shared. */
    static AddressSpace addressSpace(SelfStackCapture capture) throws IOException {
        List<Module> modules = new ArrayList<>();
        for (SelfStackCapture.LoadedModule m : capture.modules()) {
            Loaded loaded = m.image().length > 0
                    ? load(m.image())
                    : FILES.computeIfAbsent(m.name(), SelfStackFixture::loadFile);
            modules.add(Module.of(m.name(), loaded.elf(), m.bias(), loaded.cfi()));
        }
        return AddressSpace.of(modules);
    }

    private static Loaded loadFile(String path) {
        try {
            return load(Files.readAllBytes(Path.of(path)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Loaded load(byte[] image) {
        ElfFile elf = ElfFile.parse(image);
        return new Loaded(elf, ModuleCfi.of(elf));
    }
}
