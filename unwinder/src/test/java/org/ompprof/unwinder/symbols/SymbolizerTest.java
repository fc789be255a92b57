package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.image.ImageResolution;
import org.ompprof.unwinder.image.ModuleImage;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.Frame;
import org.ompprof.unwinder.stack.FrameKind;
import org.ompprof.unwinder.stack.Module;

class SymbolizerTest {
    private static final long BIAS = 0x7f00_0000_0000L;

    @Test
    void inlinedFramesThroughLlvmInnermostFirst() throws Exception {
        assumeLlvm();
        SymbolsFixture.Binaries b = SymbolsFixture.binaries();
        Module module = Module.open(b.debug(), BIAS);
        try (Symbolizer s = Symbolizer.create()) {
            List<SourceFrame> frames = inlinedPc(s, module);
            assertEquals(
                    List.of(
                            new SourceFrame(
                                    "mix",
                                    b.source().toString(),
                                    SymbolsFixture.line("mix"),
                                    frames.get(0).column(),
                                    true,
                                    "symbols-debug"),
                            new SourceFrame(
                                    "hidden_static",
                                    b.source().toString(),
                                    SymbolsFixture.line("static-loop"),
                                    frames.get(1).column(),
                                    false,
                                    "symbols-debug")),
                    frames);
            assertEquals(List.of(), s.problems());
        }
    }

    /** The first pc of hidden_static whose answer has two frames. */
    private static List<SourceFrame> inlinedPc(Symbolizer s, Module module) {
        Symbol f = SymbolsFixture.symbol(module.elf(), "hidden_static");
        Map<Long, List<SourceFrame>> all =
                s.symbolizeAll(module, SymbolsFixture.range(f.value(), f.value() + f.size()));
        return all.values().stream()
                .filter(l -> l.size() == 2)
                .findFirst()
                .orElseThrow(() -> new AssertionError(all.toString()));
    }

    @Test
    void returnAddressFramesLookUpTheCall() throws Exception {
        assumeLlvm();
        Module module = Module.open(SymbolsFixture.binaries().debug(), BIAS);
        Symbol main = SymbolsFixture.symbol(module.elf(), "main");
        try (Symbolizer s = Symbolizer.create()) {
            // A return address just past main's last byte still names main (pc - 1).
            Frame frame = new Frame(BIAS + main.value() + main.size(), FrameKind.RETURN_ADDRESS, module);
            assertEquals("main", s.symbolize(frame).getLast().function());
            assertEquals(
                    "??",
                    s.symbolize(new Frame(0x1234, FrameKind.EXACT, null))
                            .getFirst()
                            .module());
        }
    }

    /**
     * A PLT stub is named for the function it jumps to, as objdump labels it: llvm-symbolizer takes it for the symbol
     * before it ({@code _init}).
     */
    @Test
    void pltStubsAreNamedForTheirTarget() throws Exception {
        assumeLlvm();
        Path binary = SymbolsFixture.binaries().debug();
        Map<Long, String> labels = new java.util.TreeMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^([0-9a-f]+) <([^>+-]+@plt)>:")
                .matcher(TestProcesses.run(
                        List.of("objdump", "-d", "--section=.plt", "--section=.plt.got", binary.toString())));
        while (m.find()) labels.put(Long.parseLong(m.group(1), 16), m.group(2));
        assertFalse(labels.isEmpty(), "symbols.c calls printf through the PLT");
        Module module = Module.open(binary, BIAS);
        try (Symbolizer s = Symbolizer.create()) {
            for (Map.Entry<Long, String> e : labels.entrySet()) {
                assertEquals(
                        e.getValue(),
                        s.symbolize(module, e.getKey() + 6).getFirst().function());
            }
        }
        Map<Long, String> stubs = new java.util.TreeMap<>();
        for (Symbol stub : org.ompprof.unwinder.elf.PltStubs.of(module.elf())) stubs.put(stub.value(), stub.name());
        assertEquals(labels, stubs);
    }

    @Test
    void symbolTableOnlyNamesFunctions() throws Exception {
        Module module = Module.open(SymbolsFixture.binaries().debug(), BIAS);
        try (Symbolizer s = Symbolizer.symbolTablesOnly(m -> Optional.empty())) {
            Symbol f = SymbolsFixture.symbol(module.elf(), "hidden_static");
            assertEquals(
                    List.of(SourceFrame.function("hidden_static", "symbols-debug")),
                    s.symbolize(module, f.value() + 1));
            Symbol zero = SymbolsFixture.symbol(module.elf(), "zero_size_asm");
            assertEquals(
                    "zero_size_asm",
                    s.symbolize(module, zero.value() + 2).getFirst().function());
        }
    }

    @Test
    void strippedModuleGivesNamePlusOffset() throws Exception {
        SymbolsFixture.Binaries b = SymbolsFixture.binaries();
        long pc = SymbolsFixture.symbol(ElfFile.read(b.debug()), "exported_global")
                        .value()
                + 1;
        Module stripped = Module.open(b.stripped(), BIAS);
        try (Symbolizer s = Symbolizer.create()) {
            assertEquals(
                    List.of(SourceFrame.function("symbols-stripped+0x" + Long.toHexString(pc), "symbols-stripped")),
                    s.symbolize(stripped, pc));
        }
    }

    @Test
    void fileGoneFallsBackToTheSymbolTable() throws Exception {
        Path copy = Files.createTempFile("symbols-gone", "");
        Files.copy(SymbolsFixture.binaries().debug(), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Module module = Module.open(copy, BIAS);
        Files.delete(copy);
        try (Symbolizer s = Symbolizer.create()) {
            long pc = SymbolsFixture.symbol(module.elf(), "hidden_static").value() + 1;
            assertEquals(
                    List.of(SourceFrame.function(
                            "hidden_static", copy.getFileName().toString())),
                    s.symbolize(module, pc));
            if (s.llvm().isPresent())
                assertTrue(
                        s.problems().toString().contains("no file"),
                        s.problems().toString());
        }
    }

    /** An image known only as bytes (embedded in a recording) is symbolized through a private temp file. */
    @Test
    void embeddedImageThroughATempFile() throws Exception {
        assumeLlvm();
        SymbolsFixture.Binaries b = SymbolsFixture.binaries();
        byte[] bytes = Files.readAllBytes(b.debug());
        ModuleImages images = new ModuleImages();
        ImageResolution r = images.resolve(ModuleImage.embedded(
                "/gone/libembedded.so",
                ElfFile.parse(bytes).buildId().orElseThrow(),
                bytes.length,
                0,
                BIAS,
                () -> bytes));
        Module module = ((ImageResolution.Resolved) r).module();
        Symbolizer s = Symbolizer.create(images);
        List<SourceFrame> frames;
        Path scratch;
        try (s) {
            frames = inlinedPc(s, module);
            scratch = s.scratchDirectory();
            assertNotNull(scratch);
            assertTrue(Files.isDirectory(scratch));
        }
        assertEquals("libembedded.so", frames.getFirst().module());
        assertEquals(SymbolsFixture.line("mix"), frames.getFirst().line());
        assertFalse(Files.exists(scratch), "the temp files should be deleted on close");
        assertThrows(IllegalStateException.class, () -> s.symbolize(module, 0));
    }

    /** llvm-symbolizer's input cannot quote a path with a double quote in it: such files are reached through a link. */
    @Test
    void pathsWithQuotesAndSpaces() throws Exception {
        assumeLlvm();
        Path dir = Files.createDirectories(
                Path.of("target/symbols/with \"quote\" and space").toAbsolutePath());
        Path copy = dir.resolve("lib odd\".so");
        Files.copy(SymbolsFixture.binaries().debug(), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (Symbolizer s = Symbolizer.create()) {
            List<SourceFrame> frames = inlinedPc(s, Module.open(copy, BIAS));
            assertEquals(SymbolsFixture.line("mix"), frames.getFirst().line());
            assertEquals("lib odd\".so", frames.getFirst().module());
            assertEquals(List.of(), s.problems());
        }
    }

    @Test
    void hungSymbolizerFallsBackWithinTheTimeout() throws Exception {
        Module module = Module.open(SymbolsFixture.binaries().debug(), BIAS);
        LlvmSymbolizer hung = LlvmSymbolizer.start(LlvmSymbolizerTest.hangingSymbolizer(), Duration.ofMillis(200));
        try (Symbolizer s = Symbolizer.create(m -> Optional.empty(), hung)) {
            long pc = SymbolsFixture.symbol(module.elf(), "exported_global").value();
            assertEquals("exported_global", s.symbolize(module, pc).getFirst().function());
            assertTrue(
                    s.problems().toString().contains("no answer"), s.problems().toString());
            // Given up on for this image: the next pcs cost no timeout.
            long t0 = System.nanoTime();
            s.symbolize(module, pc + 1);
            assertTrue(System.nanoTime() - t0 < 100_000_000L);
        }
    }

    @Test
    void cachedAnswersAreRelabelledForAnotherModuleName() throws Exception {
        Module a = Module.open(SymbolsFixture.binaries().debug(), BIAS);
        Module b = Module.of("/elsewhere/libother.so", a.elf(), 0);
        try (Symbolizer s = Symbolizer.symbolTablesOnly(m -> Optional.empty())) {
            long pc = SymbolsFixture.symbol(a.elf(), "main").value();
            assertEquals("symbols-debug", s.symbolize(a, pc).getFirst().module());
            assertEquals("libother.so", s.symbolize(b, pc).getFirst().module());
        }
    }

    /**
     * Loading ahead has llvm-symbolizer read the module's file (it maps it) before any question about it, and what is
     * then asked is answered as without it; without llvm-symbolizer it does nothing.
     */
    @Test
    void loadingAheadReadsTheFileBeforeAnyQuestion() throws Exception {
        assumeLlvm();
        Module module = Module.open(SymbolsFixture.binaries().debug(), BIAS);
        Symbol main = SymbolsFixture.symbol(module.elf(), "main");
        long[] pcs = SymbolsFixture.range(main.value(), main.value() + main.size());
        try (Symbolizer ahead = Symbolizer.create();
                Symbolizer plain = Symbolizer.create()) {
            ahead.loadAhead(module);
            long pid = ahead.llvm().orElseThrow().pid().orElseThrow();
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!maps(pid, SymbolsFixture.binaries().debug()) && System.nanoTime() < until) Thread.sleep(10);
            assertTrue(maps(pid, SymbolsFixture.binaries().debug()), "llvm-symbolizer has not read the file");
            assertEquals(plain.symbolizeAll(module, pcs), ahead.symbolizeAll(module, pcs));
            assertEquals(List.of(), ahead.problems());
        }
        try (Symbolizer tables = Symbolizer.symbolTablesOnly(m -> Optional.empty())) {
            tables.loadAhead(module);
            assertEquals(
                    "main", tables.symbolize(module, main.value()).getLast().function());
        }
    }

    private static boolean maps(long pid, Path file) throws java.io.IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/maps")).stream()
                .anyMatch(l -> l.endsWith(file.toString()));
    }

    static void assumeLlvm() {
        assumeTrue(LlvmSymbolizer.locate().isPresent(), "llvm-symbolizer is not installed");
    }
}
