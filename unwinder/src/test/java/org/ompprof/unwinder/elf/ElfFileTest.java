package org.ompprof.unwinder.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ElfFileTest {
    private static final Path LIBOMP = Path.of("/usr/lib/llvm-19/lib/libomp.so.5");

    @Test
    void readsLibompLikeReadelf() throws Exception {
        ElfFile elf = ElfFile.read(LIBOMP);
        assertEquals(3, elf.type());
        assertTrue(elf.section(".eh_frame_hdr").isPresent());
        assertTrue(elf.programHeaders().stream().anyMatch(p -> p.type() == ElfFile.PT_GNU_EH_FRAME));
        assertTrue(elf.symbols().stream().anyMatch(s -> s.name().equals("__kmpc_fork_call") && s.isFunction()));
        assertTrue(elf.needed().stream().anyMatch(n -> n.startsWith("libc.so")));
        assertEquals(readelfBuildId(LIBOMP), elf.buildId().orElseThrow());
    }

    /** A function's name, told in the string table's bytes: as the symbols read whole say, for any name. */
    @Test
    void definesFunctionAsTheSymbolsSay() throws Exception {
        ElfFile omp = ElfFile.read(LIBOMP);
        assertTrue(omp.definesFunction("__kmpc_fork_call"));
        for (String notQuite : new String[] {"__kmpc_fork_cal", "__kmpc_fork_call_", "_kmpc_fork_call", "", "x"})
            assertFalse(omp.definesFunction(notQuite), notQuite);
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        for (Path lib : new Path[] {LIBOMP, libc}) {
            ElfFile elf = ElfFile.read(lib);
            List<Symbol> symbols = elf.symbols();
            Set<String> functions = new HashSet<>(), objects = new HashSet<>();
            for (Symbol s : symbols) (s.isFunction() ? functions : objects).add(s.name());
            for (String f : functions) assertTrue(elf.definesFunction(f), lib + ": " + f);
            objects.removeAll(functions);
            for (String o : objects) assertFalse(elf.definesFunction(o), lib + ": object " + o);
        }
        assertFalse(ElfFile.read(libc).definesFunction("__kmpc_fork_call"));
        Set<String> asked = Set.of("__kmpc_fork_call", "__libc_start_main", "malloc", "environ", "x");
        assertEquals(Set.of("__kmpc_fork_call"), omp.definedFunctions(asked));
        assertEquals(Set.of("__libc_start_main", "malloc"), ElfFile.read(libc).definedFunctions(asked));
    }

    private static String readelfBuildId(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("readelf", "-n", file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(30, TimeUnit.SECONDS);
        for (String line : out.split("\n")) {
            if (line.contains("Build ID:"))
                return line.substring(line.indexOf(':') + 1).trim();
        }
        throw new AssertionError("readelf printed no build id:\n" + out);
    }

    @Test
    void rejectsWhatIsNotElf() {
        ElfFormatException e =
                assertThrows(ElfFormatException.class, () -> ElfFile.parse("#!/bin/sh\necho hi\n".getBytes()));
        assertTrue(e.getMessage().contains("not an ELF file"), e.getMessage());
        assertThrows(ElfFormatException.class, () -> ElfFile.parse(new byte[0]));
    }

    /** Truncations and random damage of a real library: a clear exception or a result, never anything else. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void survivesDamage(long seed) throws Exception {
        byte[] good = Files.readAllBytes(LIBOMP);
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            byte[] bad = rnd.nextBoolean() ? java.util.Arrays.copyOf(good, rnd.nextInt(good.length)) : good.clone();
            int flips = 1 + rnd.nextInt(64);
            for (int i = 0; i < flips && bad.length > 0; i++) {
                int at = rnd.nextInt(Math.min(bad.length, round % 2 == 0 ? 4096 : bad.length));
                bad[at] = (byte) rnd.nextInt(256);
            }
            try {
                ElfFile elf = ElfFile.parse(bad);
                elf.symbols();
                elf.definesFunction("__kmpc_fork_call");
                elf.buildId();
                elf.needed();
            } catch (ElfFormatException expected) {
                assertFalse(expected.getMessage().isBlank());
            }
        }
    }
}
