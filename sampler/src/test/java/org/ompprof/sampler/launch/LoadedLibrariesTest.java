package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoadedLibrariesTest {
    private static final String LISTING = """
            \tlinux-vdso.so.1 (0x00007ffd3a1f2000)
            \tlibomp.so.5 => /usr/lib/llvm-19/lib/libomp.so.5 (0x00007f798ffa4000)
            \tlibfoo.so => not found
            \tlib with space.so => /x/y.so (0x1)
            \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f798fcef000)
            \tlibc.so.6 => /elsewhere/libc.so.6 (0x2)
            \t/lib64/ld-linux-x86-64.so.2 (0x00007f79900e0000)
            """;

    @Test
    void readsNamesAndFilesAndNothingElse() {
        LoadedLibraries ls = LoadedLibraries.parse(LISTING);
        assertEquals(
                Map.of(
                        "libomp.so.5",
                        Path.of("/usr/lib/llvm-19/lib/libomp.so.5"),
                        "libc.so.6",
                        Path.of("/lib/x86_64-linux-gnu/libc.so.6")),
                ls.resolved(),
                "the first resolution of a name is the one loaded");
    }

    /** Truncated listings and random bytes (a program that ignores the variable and prints) never throw. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void survivesTruncatedAndRandomOutput(long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < 200; i++) {
            String cut = LISTING.substring(0, r.nextInt(LISTING.length() + 1));
            LoadedLibraries ls = LoadedLibraries.parse(cut);
            ls.resolved().values().forEach(p -> assertTrue(p.isAbsolute(), p.toString()));
            byte[] noise = new byte[r.nextInt(300)];
            r.nextBytes(noise);
            String mixed = cut + new String(noise, StandardCharsets.ISO_8859_1) + " => /a\0b (0x1)\n";
            LoadedLibraries.parse(mixed).resolved().values().forEach(p -> assertTrue(p.isAbsolute(), p.toString()));
        }
    }
}
