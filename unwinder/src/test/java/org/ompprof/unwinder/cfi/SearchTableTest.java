package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.elf.ElfFile;

/** Lookups through .eh_frame_hdr and through the scanned index must find the same rows. */
class SearchTableTest {

    @ParameterizedTest
    @ValueSource(strings = {"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/llvm-19/lib/libomp.so.5"})
    void headerAndScanAgree(String file) throws Exception {
        CfiSources sources = CfiSources.of(ElfFile.read(Path.of(file)));
        ModuleCfi withHeader = ModuleCfi.of(sources);
        ModuleCfi scanning = ModuleCfi.of(
                new CfiSources(Optional.empty(), sources.ehFrame(), Optional.empty(), sources.textVaddr()));
        assertTrue(withHeader.usesSearchTable());
        assertFalse(scanning.usesSearchTable());
        EhFrameHdr header = EhFrameHdr.parse(sources.ehFrameHdr().orElseThrow());
        CfiSection section = new CfiSection(
                sources.ehFrame().orElseThrow(),
                CfiOrigin.EH_FRAME,
                PointerBases.of(sources.ehFrame().get().vaddr()));
        assertEquals(header.count(), FdeIndex.scan(section).size(), "FDEs in the table and in the section");
        for (int i = 0; i < header.count(); i++) {
            long start = header.initialLocation(i);
            Fde fde = section.fdeAt((int) (header.fdeAddress(i) - section.data().vaddr()));
            assertEquals(start, fde.pcBegin(), "table entry " + i);
            for (long pc : new long[] {start, start + 1, (start + fde.pcEnd()) / 2, fde.pcEnd() - 1}) {
                if (!fde.covers(pc)) continue; // one-byte FDEs
                assertEquals(withHeader.rowFor(pc), scanning.rowFor(pc), "pc 0x" + Long.toHexString(pc));
                assertInstanceOf(UnwindRow.class, withHeader.rowFor(pc));
            }
        }
        assertInstanceOf(NoCfi.class, withHeader.rowFor(header.initialLocation(0) - 1));
    }

    /** Without section headers (sstrip), PT_GNU_EH_FRAME leads to the header and the header to .eh_frame. */
    @ParameterizedTest
    @ValueSource(strings = {"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/llvm-19/lib/libomp.so.5"})
    void withoutSectionHeaders(String file) throws Exception {
        byte[] image = java.nio.file.Files.readAllBytes(Path.of(file));
        ModuleCfi normal = ModuleCfi.of(ElfFile.parse(image));
        byte[] stripped = image.clone();
        java.util.Arrays.fill(stripped, 40, 48, (byte) 0); // e_shoff
        java.util.Arrays.fill(stripped, 60, 62, (byte) 0); // e_shnum
        ElfFile elf = ElfFile.parse(stripped);
        assertTrue(elf.sections().isEmpty());
        ModuleCfi fromSegments = ModuleCfi.of(elf);
        assertTrue(fromSegments.usesSearchTable());
        EhFrameHdr header = EhFrameHdr.parse(CfiSources.of(elf).ehFrameHdr().orElseThrow());
        for (int i = 0; i < header.count(); i += 7) {
            long pc = header.initialLocation(i);
            assertEquals(normal.rowFor(pc), fromSegments.rowFor(pc), "pc 0x" + Long.toHexString(pc));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0x03, 0x1b, 0x04, 0x0c, 0x02})
    void tableEncodings(int valueFormat) {
        // One FDE at 0x1000; the table written with different value formats, datarel or absolute.
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int fde = b.fde(b.standardCie(), 0x1000, 0x10, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x41, 0x0e, 0x10));
        SectionData eh = b.build();
        long hdrVaddr = 0x1800;
        int encoding = valueFormat == 0x1b ? 0x3b : valueFormat;
        ByteSink hdr = new ByteSink()
                .u8(1, 0x1b, 0x03, encoding)
                .u32(eh.vaddr() - (hdrVaddr + 4))
                .u32(1);
        long[] values = {0x1000, eh.vaddr() + fde};
        for (long v : values) {
            long stored = encoding == 0x3b ? v - hdrVaddr : v;
            switch (valueFormat) {
                case 0x02 -> hdr.u16((int) stored);
                case 0x03, 0x1b -> hdr.u32(stored);
                default -> hdr.u64(stored);
            }
        }
        ModuleCfi cfi = ModuleCfi.of(new CfiSources(
                Optional.of(new SectionData(".eh_frame_hdr", hdr.toBytes(), hdrVaddr)),
                Optional.of(eh),
                Optional.empty(),
                PointerBases.UNKNOWN));
        assertTrue(cfi.usesSearchTable());
        assertEquals("CFA=RSP+16: RIP=[CFA-8]", ((UnwindRow) cfi.rowFor(0x1001)).describe());
    }

    @ParameterizedTest
    @ValueSource(ints = {0x01, 0x09})
    void lebTablesCannotBeBisectedSoTheSectionIsScanned(int encoding) {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        b.fde(b.standardCie(), 0x1000, 0x10, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x41, 0x0e, 0x10));
        SectionData eh = b.build();
        byte[] hdr = new ByteSink()
                .u8(1, 0x1b, 0x03, encoding)
                .u32(eh.vaddr() - 0x1804)
                .u32(1)
                .uleb(0x1000)
                .uleb(0x2000)
                .toBytes();
        ModuleCfi cfi = ModuleCfi.of(new CfiSources(
                Optional.of(new SectionData(".eh_frame_hdr", hdr, 0x1800)),
                Optional.of(eh),
                Optional.empty(),
                PointerBases.UNKNOWN));
        assertFalse(cfi.usesSearchTable());
        assertEquals("CFA=RSP+16: RIP=[CFA-8]", ((UnwindRow) cfi.rowFor(0x1001)).describe());
    }
}
