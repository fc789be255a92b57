package org.ompprof.unwinder.cfi;

/**
 * What the relative {@code DW_EH_PE} applications are relative to: the section's own address
 * (pcrel adds the address of the field), .text (textrel) and the data base (datarel, which
 * for .eh_frame_hdr is the header itself). {@link #UNKNOWN} marks a base the module lacks, so
 * an encoding that needs it fails with a reason instead of producing a wrong address.
 */
public record PointerBases(long sectionVaddr, long textBase, long dataBase) {
    public static final long UNKNOWN = Long.MIN_VALUE;

    public static PointerBases of(long sectionVaddr) {
        return new PointerBases(sectionVaddr, UNKNOWN, UNKNOWN);
    }
}
