package org.ompprof.unwinder.cfi;

/**
 * The .eh_frame_hdr binary search table: sorted (initial location, FDE address) pairs that let
 * a lookup find its FDE in O(log n) without scanning .eh_frame. Only fixed-size entry encodings
 * can be bisected; a header with anything else is rejected, and the caller scans instead.
 */
public final class EhFrameHdr {
    private final byte[] bytes;
    private final long vaddr;
    private final long ehFramePointer;
    private final int count;
    private final int tableStart;
    private final int tableEncoding;
    private final int valueSize;

    private EhFrameHdr(SectionData hdr, long ehFramePointer, int count, int tableStart, int tableEncoding) {
        this.bytes = hdr.bytes();
        this.vaddr = hdr.vaddr();
        this.ehFramePointer = ehFramePointer;
        this.count = count;
        this.tableStart = tableStart;
        this.tableEncoding = tableEncoding;
        this.valueSize = PointerEncoding.fixedSize(tableEncoding);
    }

    public static EhFrameHdr parse(SectionData hdr) {
        DwarfCursor c = new DwarfCursor(hdr.bytes(), hdr.name(), 0, hdr.size());
        int version = c.u8();
        if (version != 1) throw c.error("version " + version + " (only 1 exists)", 0);
        int ptrEnc = c.u8(), countEnc = c.u8(), tableEnc = c.u8();
        PointerBases bases = new PointerBases(hdr.vaddr(), PointerBases.UNKNOWN, hdr.vaddr());
        long ehFrame = PointerEncoding.read(c, ptrEnc, bases);
        if (countEnc == PointerEncoding.OMIT || tableEnc == PointerEncoding.OMIT) {
            return new EhFrameHdr(hdr, ehFrame, 0, c.position(), PointerEncoding.DATAREL | PointerEncoding.SDATA4);
        }
        long count = PointerEncoding.read(c, countEnc, bases);
        int size = PointerEncoding.fixedSize(tableEnc);
        int application = tableEnc & 0x70;
        if (size < 0
                || (tableEnc & PointerEncoding.INDIRECT) != 0
                || (application != 0
                        && application != PointerEncoding.PCREL
                        && application != PointerEncoding.DATAREL)) {
            throw c.error("search table encoding 0x" + Integer.toHexString(tableEnc) + " cannot be bisected", 3);
        }
        if (count < 0 || count > (long) (hdr.size() - c.position()) / (2L * size)) {
            throw c.error("table of " + count + " entries runs past the end", c.position());
        }
        return new EhFrameHdr(hdr, ehFrame, (int) count, c.position(), tableEnc);
    }

    /** Where the header says .eh_frame starts (used when section headers are missing). */
    public long ehFramePointer() {
        return ehFramePointer;
    }

    public int count() {
        return count;
    }

    /** Initial location of entry {@code i}. */
    public long initialLocation(int i) {
        return value(tableStart + i * 2 * valueSize);
    }

    /** FDE address of entry {@code i}. */
    public long fdeAddress(int i) {
        return value(tableStart + i * 2 * valueSize + valueSize);
    }

    /** The index of the last entry whose initial location is {@code <= pc}, or -1. */
    public int search(long pc) {
        int lo = 0, hi = count - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (initialLocation(mid) <= pc) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private long value(int pos) {
        long raw = 0;
        for (int i = valueSize - 1; i >= 0; i--) raw = raw << 8 | (bytes[pos + i] & 0xffL);
        boolean signed = (tableEncoding & PointerEncoding.SIGNED) != 0;
        if (signed && valueSize < 8) raw = raw << (64 - 8 * valueSize) >> (64 - 8 * valueSize);
        return switch (tableEncoding & 0x70) {
            case PointerEncoding.PCREL -> vaddr + pos + raw;
            case PointerEncoding.DATAREL -> vaddr + raw;
            default -> raw;
        };
    }
}
