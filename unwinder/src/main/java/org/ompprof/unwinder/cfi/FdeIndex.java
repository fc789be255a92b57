package org.ompprof.unwinder.cfi;

import java.util.Arrays;

/**
 * A sorted index of the FDEs of a section, built by one scan: needed for .debug_frame (which
 * has no search table) and for .eh_frame without a usable .eh_frame_hdr. Entries whose CIE is
 * damaged are left out; a damaged length field ends the scan, keeping what came before it.
 */
public final class FdeIndex {
    private static final long[] NONE = new long[0];

    private final long[] begins;
    private final long[] ends;
    private final int[] offsets;
    private final String scanProblem;

    private FdeIndex(long[] begins, long[] ends, int[] offsets, String scanProblem) {
        this.begins = begins;
        this.ends = ends;
        this.offsets = offsets;
        this.scanProblem = scanProblem;
    }

    public static FdeIndex scan(CfiSection section) {
        int capacity = 64, n = 0;
        long[] begins = new long[capacity], ends = new long[capacity];
        int[] offsets = new int[capacity];
        String problem = null;
        int offset = 0;
        int size = section.data().size();
        while (offset < size) {
            EntryHeader h;
            try {
                h = section.header(offset);
            } catch (CfiFormatException e) {
                problem = e.getMessage();
                break;
            }
            if (h.terminator() && section.origin() == CfiOrigin.EH_FRAME) break;
            if (!h.terminator() && !h.isCie()) {
                Fde fde = tryParse(section, h);
                if (fde != null && fde.pcEnd() != fde.pcBegin()) {
                    if (n == capacity) {
                        capacity *= 2;
                        begins = Arrays.copyOf(begins, capacity);
                        ends = Arrays.copyOf(ends, capacity);
                        offsets = Arrays.copyOf(offsets, capacity);
                    }
                    begins[n] = fde.pcBegin();
                    ends[n] = fde.pcEnd();
                    offsets[n] = fde.offset();
                    n++;
                }
            }
            offset = h.next();
        }
        return sorted(begins, ends, offsets, n, problem);
    }

    private static Fde tryParse(CfiSection section, EntryHeader h) {
        try {
            return section.parseFde(h);
        } catch (CfiFormatException e) {
            return null;
        }
    }

    private static FdeIndex sorted(long[] begins, long[] ends, int[] offsets, int n, String problem) {
        if (n == 0) return new FdeIndex(NONE, NONE, new int[0], problem);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (x, y) -> Long.compare(begins[x], begins[y]));
        long[] b = new long[n], e = new long[n];
        int[] o = new int[n];
        for (int i = 0; i < n; i++) {
            b[i] = begins[order[i]];
            e[i] = ends[order[i]];
            o[i] = offsets[order[i]];
        }
        return new FdeIndex(b, e, o, problem);
    }

    public int size() {
        return begins.length;
    }

    /** Why the scan stopped early, or null if it read the whole section. */
    public String scanProblem() {
        return scanProblem;
    }

    /** The section offset of an FDE covering {@code pc}, or -1. */
    public int find(long pc) {
        int i = Arrays.binarySearch(begins, pc);
        if (i < 0) i = -i - 2;
        // Nested or overlapping FDEs are rare but exist (hand-written assembly): look back a little.
        for (int k = i; k >= 0 && k > i - 4; k--) {
            if (begins[k] <= pc && pc < ends[k]) return offsets[k];
        }
        return -1;
    }
}
