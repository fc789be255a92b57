package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.elf.ElfFile;

/**
 * Functions named as their callers write them: without a symbol version ({@code clock_nanosleep@@GLIBC_2.17}), and by
 * the default version's name where a compatibility alias shares the address ({@code free}, not {@code
 * cfree@GLIBC_2.2.5}, as glibc's debug file names them).
 */
class VersionedNamesTest {
    @TempDir
    Path work;

    @ParameterizedTest
    @CsvSource({
        "clock_nanosleep@@GLIBC_2.17, clock_nanosleep, false",
        "cfree@GLIBC_2.2.5, cfree, true",
        "free, free, false",
        "exp@plt, exp@plt, false",
        "@odd, @odd, false",
    })
    void versionsComeOff(String symbol, String name, boolean compat) {
        assertEquals(name, org.ompprof.unwinder.elf.Symbol.unversioned(symbol));
        assertEquals(compat, SymbolTable.compatAlias(symbol));
    }

    /** A library whose one function is new_name@@VER_2 and old_name@VER_1 (and impl, local). */
    @Test
    void theDefaultVersionNamesTheAddress() throws Exception {
        Path source = Files.writeString(work.resolve("ver.c"), """
                void impl(void) {}
                __asm__(".symver impl, old_name@VER_1");
                __asm__(".symver impl, new_name@@VER_2");
                """);
        Path map = Files.writeString(
                work.resolve("ver.map"),
                "VER_1 { global: old_name; local: *; };\nVER_2 { global: new_name; } VER_1;\n");
        Path lib = work.resolve("libver.so");
        TestProcesses.run(List.of(
                "clang-19",
                "-shared",
                "-fPIC",
                "-o",
                lib.toString(),
                source.toString(),
                "-Wl,--version-script=" + map));
        ElfFile elf = ElfFile.read(lib);
        long at = elf.symbols().stream()
                .filter(s -> s.name().startsWith("old_name"))
                .findFirst()
                .orElseThrow()
                .value();
        assertEquals("new_name", SymbolTable.of(elf).lookup(at).name());
        assertTrue(elf.symbols().stream().anyMatch(s -> s.name().equals("old_name@VER_1")), "the fixture's alias");
        assertFalse(SymbolTable.of(elf).lookup(at).name().contains("@"));
    }
}
