package org.ompprof.unwinder.cfi;

/**
 * The length and id fields every CIE and FDE starts with. {@code next} is where the following
 * entry starts; {@code ciePointer} is already turned into a section offset for FDEs.
 */
record EntryHeader(int offset, int bodyStart, int next, boolean isCie, long ciePointer, boolean terminator) {
    static EntryHeader terminatorAt(int offset) {
        return new EntryHeader(offset, offset + 4, offset + 4, false, -1, true);
    }
}
