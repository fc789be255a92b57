package org.ompprof.unwinder.cfi;

/**
 * Decoding of {@code DW_EH_PE_*} encoded pointers (LSB, "Exception Frame" chapter): the low
 * nibble says how the value is stored, the next three bits what it is relative to, and 0x80
 * that the result is the address of the real value. All values are ELF virtual addresses.
 */
final class PointerEncoding {
    static final int OMIT = 0xff;
    static final int ABSPTR = 0x00, ULEB128 = 0x01, UDATA2 = 0x02, UDATA4 = 0x03, UDATA8 = 0x04;
    static final int SIGNED = 0x08, SLEB128 = 0x09, SDATA2 = 0x0a, SDATA4 = 0x0b, SDATA8 = 0x0c;
    static final int PCREL = 0x10, TEXTREL = 0x20, DATAREL = 0x30, FUNCREL = 0x40, ALIGNED = 0x50;
    static final int INDIRECT = 0x80;

    private PointerEncoding() {}

    /** Bytes taken by a fixed-size encoding, or -1 for LEB128 forms (which cannot be indexed). */
    static int fixedSize(int encoding) {
        return switch (encoding & 0x0f) {
            case ABSPTR, SIGNED, UDATA8, SDATA8 -> 8;
            case UDATA2, SDATA2 -> 2;
            case UDATA4, SDATA4 -> 4;
            default -> -1;
        };
    }

    /** Reads the stored value, sign-extended where the format says so, without applying a base. */
    static long readValue(DwarfCursor c, int encoding) {
        int at = c.position();
        return switch (encoding & 0x0f) {
            case ABSPTR, SIGNED, UDATA8, SDATA8 -> c.u64();
            case ULEB128 -> c.uleb();
            case SLEB128 -> c.sleb();
            case UDATA2 -> c.u16();
            case SDATA2 -> (short) c.u16();
            case UDATA4 -> c.u32();
            case SDATA4 -> (int) c.u32();
            default ->
                throw c.error(
                        "unknown pointer value format 0x" + Integer.toHexString(encoding & 0x0f) + " in encoding 0x"
                                + Integer.toHexString(encoding),
                        at);
        };
    }

    /** Reads a pointer and applies its base; the result is an address in the module's vaddr space. */
    static long read(DwarfCursor c, int encoding, PointerBases bases) {
        if (encoding == OMIT) throw c.error("pointer is omitted (encoding 0xff) where one is required", c.position());
        int at = c.position();
        if ((encoding & INDIRECT) != 0) {
            throw c.error(
                    "indirect pointer encoding 0x" + Integer.toHexString(encoding)
                            + " is not supported: the address would have to be read from the running process",
                    at);
        }
        if ((encoding & 0x70) == ALIGNED) {
            long fieldVaddr = bases.sectionVaddr() + at;
            long aligned = (fieldVaddr + 7) & ~7L;
            c.skip(aligned - fieldVaddr);
            return c.u64();
        }
        long value = readValue(c, encoding);
        return switch (encoding & 0x70) {
            case 0 -> value;
            case PCREL -> bases.sectionVaddr() + at + value;
            case TEXTREL -> relativeTo(c, bases.textBase(), value, "textrel (.text)", at);
            case DATAREL -> relativeTo(c, bases.dataBase(), value, "datarel (data base)", at);
            case FUNCREL -> throw c.error("funcrel pointer encoding is not supported in call-frame tables", at);
            default -> throw c.error("unknown pointer application 0x" + Integer.toHexString(encoding & 0x70), at);
        };
    }

    private static long relativeTo(DwarfCursor c, long base, long value, String what, int at) {
        if (base == PointerBases.UNKNOWN) throw c.error(what + " pointer but the module has no such base", at);
        return base + value;
    }

    /** Steps over an encoded pointer whose value is not needed (a personality routine). */
    static void skip(DwarfCursor c, int encoding, PointerBases bases) {
        if (encoding == OMIT) return;
        if ((encoding & 0x70) == ALIGNED) {
            read(c, encoding & ~INDIRECT, bases);
            return;
        }
        readValue(c, encoding);
    }
}
