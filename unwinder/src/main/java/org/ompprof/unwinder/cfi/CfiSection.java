package org.ompprof.unwinder.cfi;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The entries of one .eh_frame or .debug_frame section. The two share a layout but differ in
 * details: the CIE id (0 vs all ones), what an FDE's CIE pointer is relative to (the field vs
 * the section start), and how addresses are stored (DW_EH_PE encodings vs plain target words).
 * Parsed CIEs are cached because every FDE lookup needs its CIE.
 */
public final class CfiSection {
    private static final long MAX_ALIGNMENT = 1 << 16;
    private static final int MAX_REGISTER = 0xffff;

    private final SectionData data;
    private final CfiOrigin origin;
    private final PointerBases bases;
    private final ConcurrentHashMap<Integer, Cie> cies = new ConcurrentHashMap<>();

    public CfiSection(SectionData data, CfiOrigin origin, PointerBases bases) {
        this.data = data;
        this.origin = origin;
        this.bases = bases;
    }

    public SectionData data() {
        return data;
    }

    public CfiOrigin origin() {
        return origin;
    }

    PointerBases bases() {
        return bases;
    }

    DwarfCursor cursor(int start, int limit) {
        return new DwarfCursor(data.bytes(), data.name(), start, limit);
    }

    EntryHeader header(int offset) {
        DwarfCursor c = cursor(offset, data.size());
        long length = c.u32();
        if (length == 0) return EntryHeader.terminatorAt(offset);
        boolean dwarf64 = length == 0xffffffffL;
        if (dwarf64) {
            length = c.u64();
        } else if (length >= 0xfffffff0L) {
            throw c.error("reserved length value 0x" + Long.toHexString(length), offset);
        }
        int lengthEnd = c.position();
        if (length < 4 || length > data.size() - lengthEnd) {
            throw c.error("entry length " + length + " runs past the end of the section", offset);
        }
        int next = lengthEnd + (int) length;
        DwarfCursor body = cursor(lengthEnd, next);
        return origin == CfiOrigin.EH_FRAME ? ehFrameId(body, offset, next) : debugFrameId(body, offset, next, dwarf64);
    }

    private static EntryHeader ehFrameId(DwarfCursor c, int offset, int next) {
        int idAt = c.position();
        long id = c.u32();
        // The id of an .eh_frame FDE counts back from the id field itself to its CIE.
        return new EntryHeader(offset, c.position(), next, id == 0, idAt - id, false);
    }

    private static EntryHeader debugFrameId(DwarfCursor c, int offset, int next, boolean dwarf64) {
        long id = dwarf64 ? c.u64() : c.u32();
        boolean isCie = dwarf64 ? id == -1L : id == 0xffffffffL;
        return new EntryHeader(offset, c.position(), next, isCie, id, false);
    }

    /** The CIE at {@code offset}, parsed once. */
    public Cie cieAt(int offset) {
        Cie cached = cies.get(offset);
        if (cached != null) return cached;
        EntryHeader h = header(offset);
        if (h.terminator() || !h.isCie()) throw new CfiFormatException(data.name() + ": no CIE here", offset);
        Cie cie = parseCie(h);
        cies.putIfAbsent(offset, cie);
        return cie;
    }

    private Cie parseCie(EntryHeader h) {
        DwarfCursor c = cursor(h.bodyStart(), h.next());
        int version = c.u8();
        boolean known = origin == CfiOrigin.EH_FRAME
                ? version == 1 || version == 3
                : version == 1 || version == 3 || version == 4;
        if (!known) throw c.error("CIE version " + version + " is not supported", h.offset());
        String augmentation = c.cString();
        int addressSize = 8;
        if (version >= 4) {
            addressSize = c.u8();
            int segmentSize = c.u8();
            if (segmentSize != 0) throw c.error("segmented addresses are not supported", h.offset());
            if (addressSize != 4 && addressSize != 8) throw c.error("address size " + addressSize, h.offset());
        }
        if (augmentation.contains("eh")) throw c.error("pre-1998 'eh' augmentation is not supported", h.offset());
        long codeAlignment = c.uleb();
        long dataAlignment = c.sleb();
        if (codeAlignment > MAX_ALIGNMENT || Math.abs(dataAlignment) > MAX_ALIGNMENT) {
            throw c.error("implausible alignment factors " + codeAlignment + "/" + dataAlignment, h.offset());
        }
        long ra = version == 1 ? c.u8() : c.uleb();
        if (ra < 0 || ra > MAX_REGISTER) throw c.error("return address register " + ra, h.offset());
        Augmentation aug = readAugmentation(c, augmentation, h.offset());
        return new Cie(
                h.offset(),
                version,
                augmentation,
                codeAlignment,
                dataAlignment,
                (int) ra,
                aug.fdeEncoding,
                aug.hasData,
                aug.signalFrame,
                addressSize,
                c.position(),
                h.next());
    }

    private record Augmentation(int fdeEncoding, boolean hasData, boolean signalFrame) {}

    private Augmentation readAugmentation(DwarfCursor c, String augmentation, int cieOffset) {
        if (augmentation.isEmpty()) return new Augmentation(PointerEncoding.ABSPTR, false, false);
        if (augmentation.charAt(0) != 'z') {
            throw c.error("augmentation \"" + augmentation + "\" without 'z' cannot be skipped", cieOffset);
        }
        long length = c.uleb();
        if (length < 0 || length > c.limit() - c.position()) throw c.error("augmentation data too long", cieOffset);
        int end = c.position() + (int) length;
        int fdeEncoding = PointerEncoding.ABSPTR;
        boolean signal = false;
        for (int i = 1; i < augmentation.length(); i++) {
            switch (augmentation.charAt(i)) {
                case 'R' -> fdeEncoding = c.u8();
                case 'L' -> c.u8();
                case 'P' -> PointerEncoding.skip(c, c.u8(), bases);
                case 'S' -> signal = true;
                case 'B', 'G' -> {} // AArch64 pointer authentication / MTE: carry no data
                default ->
                    throw c.error(
                            "unknown augmentation '" + augmentation.charAt(i) + "' in \"" + augmentation + "\"",
                            cieOffset);
            }
        }
        if (c.position() > end) throw c.error("augmentation fields overrun their length", cieOffset);
        c.seek(end);
        return new Augmentation(fdeEncoding, true, signal);
    }

    /** The FDE at {@code offset}; null if a CIE or the terminator sits there. */
    public Fde fdeAt(int offset) {
        EntryHeader h = header(offset);
        if (h.terminator() || h.isCie()) return null;
        return parseFde(h);
    }

    Fde parseFde(EntryHeader h) {
        if (h.ciePointer() < 0 || h.ciePointer() >= data.size() || h.ciePointer() == h.offset()) {
            throw new CfiFormatException(data.name() + ": FDE points at no CIE (" + h.ciePointer() + ")", h.offset());
        }
        Cie cie = cieAt((int) h.ciePointer());
        DwarfCursor c = cursor(h.bodyStart(), h.next());
        long begin, range;
        if (origin == CfiOrigin.EH_FRAME) {
            begin = PointerEncoding.read(c, cie.fdeEncoding(), bases);
            range = PointerEncoding.readValue(c, cie.fdeEncoding());
            if (cie.hasAugmentationData()) c.skip(c.uleb());
        } else {
            begin = c.unsigned(cie.addressSize());
            range = c.unsigned(cie.addressSize());
        }
        long end = begin + range;
        if (range < 0 || Long.compareUnsigned(end, begin) < 0) {
            throw c.error("FDE range 0x" + Long.toHexString(range) + " wraps around", h.offset());
        }
        return new Fde(h.offset(), cie, begin, end, c.position(), h.next());
    }
}
