package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.image.ImageOrigin;
import org.ompprof.unwinder.stack.Module;

/** Stripped programs named through debuglink, MiniDebugInfo and build-id debug files. */
class DebugFileLookupTest {
    private static final long BIAS = 0x555555554000L;
    private static StrippedFixture.Binaries b;
    private static Symbol leaf, middle;

    @BeforeAll
    static void build() throws Exception {
        b = StrippedFixture.build(Path.of("target/stripped").toAbsolutePath());
        ElfFile full = ElfFile.read(b.full());
        leaf = SymbolsFixture.symbol(full, "hidden_leaf");
        middle = SymbolsFixture.symbol(full, "hidden_middle");
    }

    @Test
    void strippedAloneDoesNotKnowTheStaticFunctions() throws IOException {
        SymbolTable t = SymbolTable.of(ElfFile.read(b.bare()));
        SymbolHit hit = t.lookup(leaf.value() + 4);
        assertTrue(hit == null || !hit.name().equals("hidden_leaf"), "the fixture did not strip: " + hit);
    }

    @Test
    void debugLinkFoundBesideTheModuleWhenItsCrcMatches() throws IOException {
        DebugFileLookup lookup = new DebugFileLookup(b.debugRoot().resolveSibling("no-such-root"));
        assertEquals(
                Optional.of(b.linked().resolveSibling("linked.debug")),
                lookup.find(ElfFile.read(b.linked()), Optional.of(b.linked())));
    }

    @Test
    void debugLinkWithAnotherCrcIsRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path copy = dir.resolve("linked");
        Files.copy(b.linked(), copy);
        Files.copy(b.full(), dir.resolve("linked.debug")); // right name, wrong contents
        Files.createDirectories(dir.resolve(".debug"));
        Files.copy(
                b.linked().resolveSibling("linked.debug"),
                dir.resolve(".debug/linked.debug"),
                StandardCopyOption.REPLACE_EXISTING);
        DebugFileLookup lookup = new DebugFileLookup(dir.resolve("no-such-root"));
        assertEquals(
                Optional.of(dir.resolve(".debug/linked.debug")),
                lookup.byDebugLink(ElfFile.read(copy), Optional.of(copy)));
        Files.delete(dir.resolve(".debug/linked.debug"));
        assertEquals(Optional.empty(), lookup.byDebugLink(ElfFile.read(copy), Optional.of(copy)));
    }

    @Test
    void debugLinkUnderTheRootPlusTheModulesDirectory(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path moduleDir = dir.resolve("bin"), root = dir.resolve("root");
        Files.createDirectories(moduleDir);
        Path copy = Files.copy(b.linked(), moduleDir.resolve("linked"));
        Path under = root.resolve(moduleDir.toString().substring(1)).resolve("linked.debug");
        Files.createDirectories(under.getParent());
        Files.copy(b.linked().resolveSibling("linked.debug"), under);
        assertEquals(Optional.of(under), new DebugFileLookup(root).byDebugLink(ElfFile.read(copy), Optional.of(copy)));
    }

    @Test
    void buildIdDebugFileFoundUnderTheRoot() throws IOException {
        ElfFile bare = ElfFile.read(b.bare());
        String id = bare.buildId().orElseThrow();
        Path expected =
                b.debugRoot().resolve(".build-id").resolve(id.substring(0, 2)).resolve(id.substring(2) + ".debug");
        assertEquals(Optional.of(expected), new DebugFileLookup(b.debugRoot()).find(bare, Optional.of(b.bare())));
        assertEquals(
                Optional.empty(),
                new DebugFileLookup(b.debugRoot().resolveSibling("elsewhere")).find(bare, Optional.of(b.bare())));
    }

    @Test
    void miniDebugInfoNamesTheStaticFunctions() throws IOException {
        ElfFile mini = ElfFile.read(b.mini());
        ElfFile embedded = MiniDebugInfo.of(mini).orElseThrow();
        SymbolTable t = SymbolTable.of(mini, List.of(embedded));
        assertEquals("hidden_leaf", t.lookup(leaf.value() + 4).name());
        assertEquals("hidden_middle", t.lookup(middle.value() + 2).name());
        assertEquals(Optional.empty(), MiniDebugInfo.of(ElfFile.read(b.full())));
    }

    @Test
    void symbolizerNamesAllThreeKinds() throws IOException {
        String before = System.getProperty(DebugFileLookup.ROOT_PROPERTY);
        System.setProperty(DebugFileLookup.ROOT_PROPERTY, b.debugRoot().toString());
        try (Symbolizer s = Symbolizer.symbolTablesOnly(m -> Optional.of(new ImageOrigin.OnDisk(Path.of(m.name()))))) {
            for (Path p : List.of(b.linked(), b.mini(), b.bare())) {
                Module m = Module.open(p, BIAS);
                assertEquals(
                        "hidden_leaf",
                        s.symbolize(m, leaf.value() + 4).getFirst().function(),
                        p.toString());
                assertEquals(
                        "hidden_middle",
                        s.symbolize(m, middle.value() + 2).getFirst().function(),
                        p.toString());
            }
            assertTrue(s.problems().isEmpty(), s.problems().toString());
        } finally {
            if (before == null) System.clearProperty(DebugFileLookup.ROOT_PROPERTY);
            else System.setProperty(DebugFileLookup.ROOT_PROPERTY, before);
        }
    }

    @Test
    void llvmSymbolizerReadsTheDebugFileForLines() throws IOException {
        try (Symbolizer s = Symbolizer.create()) {
            SourceFrame f =
                    s.symbolize(Module.open(b.linked(), BIAS), leaf.value() + 4).getFirst();
            assertEquals("hidden_leaf", f.function());
            assertTrue(f.file() != null && f.file().endsWith("stripped.c"), f.toString());
        }
    }
}
