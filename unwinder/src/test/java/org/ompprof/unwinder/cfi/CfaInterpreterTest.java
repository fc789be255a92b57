package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every call frame instruction, the entry layouts and the limits, on hand-made sections. */
class CfaInterpreterTest {
    private static final long F = 0x1000;

    private static String rowAt(ModuleCfi cfi, long pc) {
        RowResult r = cfi.rowFor(pc);
        return r instanceof UnwindRow row ? row.describe() : r.toString();
    }

    private static BadCfi bad(ModuleCfi cfi, long pc) {
        return assertInstanceOf(BadCfi.class, cfi.rowFor(pc));
    }

    @Test
    void interpretsEveryInstruction() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie = b.standardCie();
        byte[] program = new ByteSink()
                .u8(0x41, 0x0e, 0x10, 0x86, 0x02) // @1: def_cfa_offset 16; rbp at cfa-16
                .u8(0x02, 0x03, 0x0d, 0x06) // @4: advance_loc1; def_cfa_register rbp
                .u8(0x03)
                .u16(0x100)
                .u8(0x0a, 0x0c, 0x07, 0x08, 0xc6) // @0x104: remember; def_cfa rsp+8; restore rbp
                .u8(0x04)
                .u32(4)
                .u8(0x0b) // @0x108: restore_state
                .u8(0x41, 0x05, 0x03, 0x03, 0x07, 0x0c, 0x08, 0x0d, 0x09, 0x0e, 0x0f) // @0x109
                .u8(0x41, 0x06, 0x03, 0x11, 0x0c, 0x7c, 0x14, 0x0d, 0x02, 0x15, 0x0f, 0x01) // @0x10a
                .u8(0x41, 0x12, 0x07, 0x7e, 0x13, 0x7d, 0x2e, 0x10, 0x2f, 0x03, 0x02, 0x00) // @0x10b
                .u8(0x41, 0x10, 0x03, 0x02, 0x77, 0x00, 0x16, 0x0c, 0x01, 0x31, 0x0f, 0x02, 0x77, 0x08) // @0x10c
                .toBytes();
        b.fde(cie, F, 0x200, EhFrameBuilder.PCREL_SDATA4, program);
        ModuleCfi cfi = b.module();

        assertEquals("CFA=RSP+8: RIP=[CFA-8]", rowAt(cfi, F));
        assertEquals("CFA=RSP+16: RBP=[CFA-16], RIP=[CFA-8]", rowAt(cfi, F + 1));
        assertEquals("CFA=RSP+16: RBP=[CFA-16], RIP=[CFA-8]", rowAt(cfi, F + 3));
        assertEquals("CFA=RBP+16: RBP=[CFA-16], RIP=[CFA-8]", rowAt(cfi, F + 4));
        assertEquals("CFA=RBP+16: RBP=[CFA-16], RIP=[CFA-8]", rowAt(cfi, F + 0x103));
        assertEquals("CFA=RSP+8: RIP=[CFA-8]", rowAt(cfi, F + 0x104));
        assertEquals("CFA=RBP+16: RBP=[CFA-16], RIP=[CFA-8]", rowAt(cfi, F + 0x108));
        assertEquals(
                "CFA=RBP+16: RBX=[CFA-24], RBP=[CFA-16], R12=undefined, R13=same, R14=R15, RIP=[CFA-8]",
                rowAt(cfi, F + 0x109));
        assertEquals(
                "CFA=RBP+16: RBP=[CFA-16], R12=[CFA+32], R13=CFA-16, R14=R15, R15=CFA-8, RIP=[CFA-8]",
                rowAt(cfi, F + 0x10a));
        assertEquals(
                "CFA=RSP+24: RBX=[CFA+16], RBP=[CFA-16], R12=[CFA+32], R13=CFA-16, R14=R15, R15=CFA-8, RIP=[CFA-8]",
                rowAt(cfi, F + 0x10b));
        assertEquals(
                "CFA=expr: RBX=[expr], RBP=[CFA-16], R12=expr, R13=CFA-16, R14=R15, R15=CFA-8, RIP=[CFA-8]",
                rowAt(cfi, F + 0x1ff));
        assertInstanceOf(NoCfi.class, cfi.rowFor(F + 0x200));
        assertInstanceOf(NoCfi.class, cfi.rowFor(F - 1));
    }

    @Test
    void rowRangesEndAtTheNextAdvance() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        b.fde(b.standardCie(), F, 0x40, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x44, 0x0e, 0x10, 0x48, 0x0e, 0x08));
        UnwindRow first = (UnwindRow) b.module().rowFor(F + 2);
        UnwindRow middle = (UnwindRow) b.module().rowFor(F + 5);
        UnwindRow last = (UnwindRow) b.module().rowFor(F + 0x30);
        assertEquals(F, first.start());
        assertEquals(F + 4, first.end());
        assertEquals(F + 4, middle.start());
        assertEquals(F + 12, middle.end());
        assertEquals(F + 0x40, last.end());
    }

    @Test
    void codeAlignmentScalesAdvances() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie =
                b.cie("zR", 4, -8, ByteSink.of(EhFrameBuilder.PCREL_SDATA4), ByteSink.of(0x0c, 0x07, 0x08, 0x90, 0x01));
        b.fde(cie, F, 0x100, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x42, 0x0e, 0x20));
        assertEquals("CFA=RSP+8: RIP=[CFA-8]", rowAt(b.module(), F + 7));
        assertEquals("CFA=RSP+32: RIP=[CFA-8]", rowAt(b.module(), F + 8));
    }

    @Test
    void setLocUsesThePointerEncoding() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie = b.cie("zR", 1, -8, ByteSink.of(0x00), ByteSink.of(0x0c, 0x07, 0x08, 0x90, 0x01));
        byte[] program = new ByteSink().u8(0x01).u64(F + 0x10).u8(0x0e, 0x10).toBytes();
        b.fde(cie, F, 0x20, 0, program);
        assertEquals("CFA=RSP+8: RIP=[CFA-8]", rowAt(b.module(), F + 0xf));
        assertEquals("CFA=RSP+16: RIP=[CFA-8]", rowAt(b.module(), F + 0x10));
    }

    @Test
    void signalFrameAugmentation() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie = b.cie(
                "zRS", 1, -8, ByteSink.of(EhFrameBuilder.PCREL_SDATA4), ByteSink.of(0x0c, 0x07, 0x08, 0x90, 0x01));
        b.fde(cie, F, 0x10, EhFrameBuilder.PCREL_SDATA4, new byte[0]);
        assertTrue(((UnwindRow) b.module().rowFor(F)).signalFrame());
    }

    @Test
    void personalityAndLsdaAugmentationsAreSkipped() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        // "zPLR": personality indirect|pcrel|sdata4 (never dereferenced), LSDA pcrel|sdata4, FDEs pcrel|sdata4.
        byte[] aug = new ByteSink().u8(0x9b).u32(0x1234).u8(0x1b, 0x1b).toBytes();
        int cie = b.cie("zPLR", 1, -8, aug, ByteSink.of(0x0c, 0x07, 0x08, 0x90, 0x01));
        int offset = b.raw().size();
        ByteSink body = new ByteSink()
                .u32(F - (EhFrameBuilder.VADDR + offset + 8))
                .u32(0x10)
                .uleb(4)
                .u32(0)
                .u8(0x41, 0x0e, 0x10);
        b.entry(offset + 4 - cie, body.toBytes(), false);
        assertEquals("CFA=RSP+16: RIP=[CFA-8]", rowAt(b.module(), F + 1));
    }

    @Test
    void sixtyFourBitLengths() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie = b.standardCie();
        int offset = b.raw().size();
        // 64-bit length: 4-byte escape + 8-byte length, then the 4-byte CIE pointer at offset + 12.
        ByteSink body = new ByteSink()
                .u32(F - (EhFrameBuilder.VADDR + offset + 16))
                .u32(0x10)
                .uleb(0)
                .u8(0x41, 0x0e, 0x18);
        b.entry(offset + 12 - cie, body.toBytes(), true);
        assertEquals("CFA=RSP+24: RIP=[CFA-8]", rowAt(b.module(), F + 1));
    }

    @Test
    void debugFrameVersionsAndAddressSizes() {
        EhFrameBuilder b = new EhFrameBuilder(CfiOrigin.DEBUG_FRAME);
        // Version 4 CIE, 64-bit DWARF: address size 8, segment size 0, RA column as ULEB.
        ByteSink cie4 = new ByteSink()
                .u8(4)
                .string("")
                .u8(8, 0)
                .uleb(1)
                .sleb(-8)
                .uleb(16)
                .u8(0x0c, 0x07, 0x08, 0x90, 0x01);
        int v4 = b.entry(-1L, cie4.toBytes(), true);
        b.entry(v4, new ByteSink().u64(F).u64(0x10).u8(0x41, 0x0e, 0x10).toBytes(), true);
        // Version 3 CIE, 32-bit DWARF.
        ByteSink cie3 =
                new ByteSink().u8(3).string("").uleb(1).sleb(-8).uleb(16).u8(0x0c, 0x07, 0x08, 0x90, 0x01);
        int v3 = b.entry(0xffffffffL, cie3.toBytes(), false);
        b.entry(v3, new ByteSink().u64(F + 0x100).u64(0x10).u8(0x42, 0x0e, 0x20).toBytes(), false);
        ModuleCfi cfi = b.module();
        assertEquals("CFA=RSP+16: RIP=[CFA-8]", rowAt(cfi, F + 1));
        assertEquals("CFA=RSP+32: RIP=[CFA-8]", rowAt(cfi, F + 0x102));
        assertEquals(CfiOrigin.DEBUG_FRAME, ((UnwindRow) cfi.rowFor(F)).origin());
    }

    @Test
    void restoreStateWithoutRememberIsAnError() {
        assertTrue(badProgram(ByteSink.of(0x0b)).message().contains("restore_state"));
    }

    @Test
    void rememberedStatesAreBounded() {
        byte[] deep = new byte[CfaInterpreter.MAX_STATE_DEPTH + 1];
        java.util.Arrays.fill(deep, (byte) 0x0a);
        assertTrue(badProgram(deep).message().contains("remember_state"));
    }

    @Test
    void unknownInstructionsAreErrors() {
        assertTrue(badProgram(ByteSink.of(0x2d)).message().contains("0x2d"));
        assertTrue(
                badProgram(ByteSink.of(0x0f, 0x01, 0x96, 0x0e, 0x10)).message().contains("def_cfa_offset"));
        assertTrue(badProgram(ByteSink.of(0x05, 0x03, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))
                .message()
                .contains("LEB128"));
        assertTrue(badProgram(ByteSink.of(0x10, 0x03, 0x20, 0x77)).message().contains("runs past"));
    }

    private static BadCfi badProgram(byte[] program) {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        b.fde(b.standardCie(), F, 0x10, EhFrameBuilder.PCREL_SDATA4, program);
        return bad(b.module(), F + 1);
    }

    @Test
    void cieProblemsAreReported() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie = b.cie("zQ", 1, -8, ByteSink.of(0), ByteSink.of(0x0c, 0x07, 0x08));
        ModuleCfi unknownAugmentation = withHeader(b, cie);
        assertTrue(bad(unknownAugmentation, F).message().contains("unknown augmentation 'Q'"));
    }

    @Test
    void indirectFdePointersAreUnsupportedWithAReason() {
        EhFrameBuilder b = EhFrameBuilder.ehFrame();
        int cie = b.cie("zR", 1, -8, ByteSink.of(0x9b), ByteSink.of(0x0c, 0x07, 0x08, 0x90, 0x01));
        BadCfi bad = bad(withHeader(b, cie), F);
        assertTrue(bad.message().contains("indirect pointer encoding 0x9b is not supported"), bad.message());
    }

    /** One FDE for F found through a search table, so the FDE's own problems are reported for F. */
    private static ModuleCfi withHeader(EhFrameBuilder b, int cie) {
        int fde = b.fde(cie, F, 0x10, EhFrameBuilder.PCREL_SDATA4, new byte[0]);
        SectionData eh = b.build();
        long hdrVaddr = 0x1800;
        byte[] hdr = new ByteSink()
                .u8(1, 0x1b, 0x03, 0x3b)
                .u32(eh.vaddr() - (hdrVaddr + 4))
                .u32(1)
                .u32(F - hdrVaddr)
                .u32(eh.vaddr() + fde - hdrVaddr)
                .toBytes();
        return ModuleCfi.of(new CfiSources(
                java.util.Optional.of(new SectionData(".eh_frame_hdr", hdr, hdrVaddr)),
                java.util.Optional.of(eh),
                java.util.Optional.empty(),
                PointerBases.UNKNOWN));
    }
}
