package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing of the DWARF CFI parser (with Jazzer). An input is a 12-byte header
 * (vaddr of .eh_frame_hdr and .eh_frame, u32 each; their lengths, u16 each) followed by the
 * .eh_frame_hdr, .eh_frame and .debug_frame bytes. Every look-up must come back with a row,
 * NoCfi or BadCfi with a message: the parser throws nothing, ever.
 */
class CfiParserFuzzTest {
    private static final int HEADER = 12;

    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void cfiParser(byte[] input) {
        ByteBuffer h = ByteBuffer.wrap(Arrays.copyOf(input, Math.max(input.length, HEADER)))
                .order(ByteOrder.LITTLE_ENDIAN);
        long hdrVaddr = Integer.toUnsignedLong(h.getInt(0)), ehVaddr = Integer.toUnsignedLong(h.getInt(4));
        int rest = Math.max(0, input.length - HEADER);
        int hdrLength = Math.min(rest, h.getShort(8) & 0xFFFF);
        int ehLength = Math.min(rest - hdrLength, h.getShort(10) & 0xFFFF);
        int from = Math.min(input.length, HEADER);
        byte[] hdr = Arrays.copyOfRange(input, from, from + hdrLength);
        byte[] eh = Arrays.copyOfRange(input, from + hdrLength, from + hdrLength + ehLength);
        byte[] debug = Arrays.copyOfRange(input, from + hdrLength + ehLength, input.length);
        ModuleCfi cfi = ModuleCfi.of(new CfiSources(
                section(".eh_frame_hdr", hdr, hdrVaddr),
                section(".eh_frame", eh, ehVaddr),
                section(".debug_frame", debug, 0),
                0x1000));
        for (long pc : pcs(hdr, hdrVaddr)) answer(cfi.rowFor(pc));
    }

    private static Optional<SectionData> section(String name, byte[] bytes, long vaddr) {
        return bytes.length == 0 ? Optional.empty() : Optional.of(new SectionData(name, bytes, vaddr));
    }

    /** Pcs the search table names when it parses (so the rows behind it are reached), and a few fixed ones. */
    private static long[] pcs(byte[] hdr, long hdrVaddr) {
        long[] fixed = {0, 0x1000, 0x1130, 0x1140, 0x2000, -1};
        try {
            EhFrameHdr table = EhFrameHdr.parse(new SectionData(".eh_frame_hdr", hdr, hdrVaddr));
            int n = Math.min(table.count(), 16);
            long[] out = Arrays.copyOf(fixed, fixed.length + 2 * n);
            for (int i = 0; i < n; i++) {
                out[fixed.length + 2 * i] = table.initialLocation(i);
                out[fixed.length + 2 * i + 1] = table.initialLocation(i) + 5;
            }
            return out;
        } catch (CfiFormatException e) {
            return fixed;
        }
    }

    private static void answer(RowResult r) {
        assertNotNull(r);
        if (r instanceof BadCfi bad)
            assertFalse(bad.message() == null || bad.message().isBlank());
    }
}
