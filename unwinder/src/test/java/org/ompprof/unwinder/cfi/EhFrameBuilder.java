package org.ompprof.unwinder.cfi;

import java.util.Optional;

/**
 * Builds .eh_frame or .debug_frame sections entry by entry, for tests of layouts and
 * instructions that real files do not all contain. FDE addresses are written with the CIE's
 * pointer encoding ('R'), pcrel|sdata4 by default like the toolchains do.
 */
public final class EhFrameBuilder {
    public static final long VADDR = 0x2000;
    public static final int PCREL_SDATA4 = 0x1b;

    private final CfiOrigin origin;
    private final ByteSink sink = new ByteSink();

    public EhFrameBuilder(CfiOrigin origin) {
        this.origin = origin;
    }

    public static EhFrameBuilder ehFrame() {
        return new EhFrameBuilder(CfiOrigin.EH_FRAME);
    }

    /** The usual x86-64 CIE: "zR", code 1, data -8, RA column 16, CFA=rsp+8, rip at CFA-8. */
    public int standardCie() {
        return cie("zR", 1, -8, ByteSink.of(PCREL_SDATA4), ByteSink.of(0x0c, 0x07, 0x08, 0x90, 0x01));
    }

    public int cie(String augmentation, long codeAlign, long dataAlign, byte[] augmentationData, byte[] instructions) {
        ByteSink body = new ByteSink();
        body.u8(1).string(augmentation).uleb(codeAlign).sleb(dataAlign).u8(16);
        if (augmentation.startsWith("z")) body.uleb(augmentationData.length).bytes(augmentationData);
        body.bytes(instructions);
        return entry(origin == CfiOrigin.EH_FRAME ? 0 : 0xffffffffL, body.toBytes(), false);
    }

    /** An FDE whose begin is stored with {@code encoding} (must match the CIE's 'R'; 0 for absptr). */
    public int fde(int cieOffset, long begin, long length, int encoding, byte[] instructions) {
        int offset = sink.size();
        ByteSink body = new ByteSink();
        long beginField = VADDR + offset + 8;
        if (origin == CfiOrigin.DEBUG_FRAME || encoding == 0) body.u64(begin).u64(length);
        else body.u32(begin - beginField).u32(length);
        if (origin == CfiOrigin.EH_FRAME) body.uleb(0); // augmentation data length: every test CIE has 'z'
        body.bytes(instructions);
        long id = origin == CfiOrigin.EH_FRAME ? offset + 4 - cieOffset : cieOffset;
        return entry(id, body.toBytes(), false);
    }

    /** A raw entry: length, id, body; {@code dwarf64} writes the 64-bit length form. */
    public int entry(long id, byte[] body, boolean dwarf64) {
        int offset = sink.size();
        int idSize = origin == CfiOrigin.DEBUG_FRAME && dwarf64 ? 8 : 4;
        long length = idSize + body.length;
        if (dwarf64) sink.u32(0xffffffffL).u64(length);
        else sink.u32(length);
        if (idSize == 8) sink.u64(id);
        else sink.u32(id);
        sink.bytes(body);
        return offset;
    }

    public ByteSink raw() {
        return sink;
    }

    public SectionData build() {
        byte[] bytes = new ByteSink().bytes(sink.toBytes()).u32(0).toBytes();
        return new SectionData(origin == CfiOrigin.EH_FRAME ? ".eh_frame" : ".debug_frame", bytes, VADDR);
    }

    public ModuleCfi module() {
        SectionData s = build();
        return origin == CfiOrigin.EH_FRAME
                ? ModuleCfi.of(new CfiSources(Optional.empty(), Optional.of(s), Optional.empty(), PointerBases.UNKNOWN))
                : ModuleCfi.of(
                        new CfiSources(Optional.empty(), Optional.empty(), Optional.of(s), PointerBases.UNKNOWN));
    }
}
