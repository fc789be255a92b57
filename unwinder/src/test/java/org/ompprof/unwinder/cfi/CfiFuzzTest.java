package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.elf.ElfFile;

/**
 * Damaged and random .eh_frame / .eh_frame_hdr / .debug_frame bytes: every lookup must come
 * back (no hang) with a row, NoCfi or BadCfi with a message, and nothing may be thrown.
 */
class CfiFuzzTest {
    private static final Path LIBC = Path.of("/usr/lib/x86_64-linux-gnu/libc.so.6");
    private static volatile CfiSources libc;

    private static CfiSources libc() throws Exception {
        if (libc == null) libc = CfiSources.of(ElfFile.read(LIBC));
        return libc;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void damagedRealSections(long seed) throws Exception {
        Random rnd = new Random(seed);
        CfiSources good = libc();
        SectionData hdr = good.ehFrameHdr().orElseThrow(), eh = good.ehFrame().orElseThrow();
        EhFrameHdr table = EhFrameHdr.parse(hdr);
        for (int round = 0; round < 6; round++) {
            SectionData badHdr = damage(hdr, rnd), badEh = damage(eh, rnd);
            boolean withHeader = rnd.nextInt(4) != 0;
            ModuleCfi cfi = ModuleCfi.of(new CfiSources(
                    withHeader ? Optional.of(badHdr) : Optional.empty(),
                    Optional.of(badEh),
                    Optional.of(new SectionData(".debug_frame", damage(eh, rnd).bytes(), 0)),
                    good.textVaddr()));
            for (int i = 0; i < 300; i++) {
                long pc = table.initialLocation(rnd.nextInt(table.count())) + rnd.nextInt(64);
                checkAnswer(cfi.rowFor(pc));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18})
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void randomSections(long seed) {
        Random rnd = new Random(seed);
        for (int round = 0; round < 50; round++) {
            SectionData hdr = new SectionData(".eh_frame_hdr", randomBytes(rnd, 64), 0x1000);
            SectionData eh = new SectionData(".eh_frame", randomBytes(rnd, 4096), 0x2000);
            SectionData debug = new SectionData(".debug_frame", randomBytes(rnd, 4096), 0);
            ModuleCfi cfi = ModuleCfi.of(new CfiSources(Optional.of(hdr), Optional.of(eh), Optional.of(debug), 0x3000));
            for (int i = 0; i < 100; i++) checkAnswer(cfi.rowFor(rnd.nextInt(0x10000)));
        }
    }

    /** Random bytes that look a bit like CFI: plausible small lengths and CIE ids are common. */
    private static byte[] randomBytes(Random rnd, int max) {
        byte[] b = new byte[rnd.nextInt(max)];
        rnd.nextBytes(b);
        for (int i = 0; i + 8 <= b.length; i += 4 + rnd.nextInt(24)) {
            if (rnd.nextBoolean()) {
                b[i] = (byte) rnd.nextInt(48);
                b[i + 1] = b[i + 2] = b[i + 3] = 0;
            }
        }
        return b;
    }

    private static SectionData damage(SectionData s, Random rnd) {
        byte[] b = s.bytes();
        if (rnd.nextInt(3) == 0) b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));
        else b = b.clone();
        int flips = 1 + rnd.nextInt(200);
        for (int i = 0; i < flips && b.length > 0; i++) b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
        return new SectionData(s.name(), b, s.vaddr());
    }

    private static void checkAnswer(RowResult r) {
        assertNotNull(r);
        if (r instanceof BadCfi bad) assertFalse(bad.message().isBlank());
    }
}
