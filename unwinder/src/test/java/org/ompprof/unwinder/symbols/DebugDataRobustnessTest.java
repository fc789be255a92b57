package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.ElfFormatException;

/**
 * Random, flipped and truncated bytes (seeded, so every failure replays): the xz reader of
 * .gnu_debugdata, the ELF inside it and the .gnu_debuglink parser end in a clear
 * {@link ElfFormatException} or a valid answer, never another exception or a hang.
 */
class DebugDataRobustnessTest {
    private static byte[] xz;
    private static byte[] miniImage;

    @BeforeAll
    static void build() throws Exception {
        StrippedFixture.Binaries b =
                StrippedFixture.build(Path.of("target/stripped-robust").toAbsolutePath());
        miniImage = Files.readAllBytes(b.mini());
        ElfFile mini = ElfFile.parse(miniImage);
        xz = mini.contents(mini.section(".gnu_debugdata").orElseThrow());
    }

    static List<Integer> seeds() {
        return IntStream.range(0, 40).boxed().toList();
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void randomBytesAreNoXz(int seed) {
        byte[] junk = new byte[new Random(seed).nextInt(4096)];
        new Random(seed).nextBytes(junk);
        ElfFormatException e = assertThrows(ElfFormatException.class, () -> MiniDebugInfo.decompress(junk, 77));
        assertTrue(e.getMessage().contains(".gnu_debugdata") && e.offset() == 77, e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void truncatedXzIsAClearError(int seed) {
        int cut = new Random(seed).nextInt(xz.length);
        assertThrows(ElfFormatException.class, () -> MiniDebugInfo.decompress(Arrays.copyOf(xz, cut), 0));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void flippedXzIsAClearErrorOrStillAnElf(int seed) {
        byte[] b = xz.clone();
        Random r = new Random(seed);
        for (int i = 0; i < 1 + r.nextInt(8); i++) b[r.nextInt(b.length)] ^= (byte) (1 + r.nextInt(255));
        try {
            SymbolTable.of(ElfFile.parse(MiniDebugInfo.decompress(b, 0)));
        } catch (ElfFormatException expected) {
            assertFalse(expected.getMessage().isBlank());
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void damagedImageNeverThrowsAnythingElse(int seed) {
        byte[] b = miniImage.clone();
        Random r = new Random(seed);
        // Damage the tail, where objcopy appended .gnu_debugdata and the section headers.
        for (int i = 0; i < 1 + r.nextInt(16); i++) {
            int at = b.length - 1 - r.nextInt(Math.min(b.length, xz.length + 4096));
            b[at] ^= (byte) (1 + r.nextInt(255));
        }
        byte[] image = r.nextBoolean() ? b : Arrays.copyOf(b, b.length - r.nextInt(xz.length));
        try {
            MiniDebugInfo.of(ElfFile.parse(image)).ifPresent(SymbolTable::of);
        } catch (ElfFormatException expected) {
            assertFalse(expected.getMessage().isBlank());
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void debugLinkParsesAnyBytes(int seed) {
        byte[] junk = new byte[new Random(seed).nextInt(64)];
        new Random(seed).nextBytes(junk);
        DebugFileLookup.DebugLink.parse(junk)
                .ifPresent(l -> assertFalse(l.name().isEmpty() || l.name().contains("/")));
    }
}
