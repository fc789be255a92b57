package org.ompprof.sampler.recording;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.wire.Wire;

/**
 * Records of some types copied out of record sections while one read inflates them, for a later
 * read of those types: the stitcher's index inflates every section for its callback records, and
 * the samples, which share the sections, are read after it; from what is kept here that read
 * neither inflates those sections again nor skips through their callback records. Per section,
 * the kept records' bytes back to back, if they are a small part of the section's, up to a budget
 * of bytes held (a section whose records are not kept is inflated again); a section's bytes are
 * let go as the later read takes them. Sections are decoded on several threads, so this is safe
 * to share among them.
 */
public final class KeptRecords {
    /** Keeps nothing. */
    public static final KeptRecords NONE = new KeptRecords(type -> false, 0);

    /**
     * What is kept outlives the collector's young collections, which copy it: worth it only where it saves
     * inflating (and skipping through) several times its bytes, as for the samples of a region-heavy run's
     * sections (a fifth of their bytes), not for a sample-heavy run's, which are nearly all samples.
     */
    private static final int WORTH = 4;

    private final IntPredicate types;
    private final long budget;
    private final AtomicLong held = new AtomicLong();
    private final ConcurrentHashMap<Integer, byte[]> bySection = new ConcurrentHashMap<>();

    private KeptRecords(IntPredicate types, long budget) {
        this.types = types;
        this.budget = budget;
    }

    /** Keeps the records whose wire type {@code types} accepts, up to {@code budgetBytes} in all. */
    public static KeptRecords of(IntPredicate types, long budgetBytes) {
        return new KeptRecords(types, budgetBytes);
    }

    /** The types kept. */
    IntPredicate types() {
        return types;
    }

    /**
     * Keeps the records of the kept types among those of {@code payload} from {@code from} on (a section's, back to
     * back, already decoded by the read that inflated them) for section {@code section}, if they fit the budget.
     */
    void offer(int section, byte[] payload, int from) {
        if (budget == 0 || held.get() >= budget) return;
        int n = keptBytes(payload, from);
        if (n == 0) return; // the later read skips a section known to hold none of its types
        if ((long) n * WORTH > payload.length - from) return; // see WORTH
        if (held.addAndGet(n) > budget) {
            held.addAndGet(-n); // does not fit: that section is inflated again
            return;
        }
        bySection.put(section, copy(payload, from, n));
    }

    /** The records kept for {@code section}, let go here; null if none were kept for it. */
    byte[] take(int section) {
        byte[] kept = bySection.remove(section);
        if (kept != null) held.addAndGet(-kept.length);
        return kept;
    }

    /** Bytes held now. */
    long held() {
        return held.get();
    }

    /** How many bytes the records of the kept types from {@code from} on take. */
    private int keptBytes(byte[] records, int from) {
        int n = 0;
        for (int off = from; (off = next(records, off)) >= 0; off += size(records, off)) n += size(records, off);
        return n;
    }

    /** The records of the kept types from {@code from} on ({@code n} bytes), in their order. */
    private byte[] copy(byte[] records, int from, int n) {
        byte[] out = new byte[n];
        int at = 0;
        for (int off = from; (off = next(records, off)) >= 0; off += size(records, off)) {
            int size = size(records, off);
            System.arraycopy(records, off, out, at, size);
            at += size;
        }
        return out;
    }

    /**
     * The offset of the first record of a kept type from {@code off} on, or -1. Read from the array byte by byte, as
     * {@link RecordingFormat#recordType} reads.
     */
    private int next(byte[] records, int off) {
        for (; off + Wire.RecordHeader.SIZEOF <= records.length; off += size(records, off)) {
            if (size(records, off) < Wire.RecordHeader.SIZEOF) return -1; // cannot be: the read checked every size
            if (types.test(RecordingFormat.recordType(records, off))) return off;
        }
        return -1;
    }

    /** The record's size field (little-endian); the read checked it against the bytes left. */
    private static int size(byte[] records, int off) {
        return Le.u32(records, off + Wire.RecordHeader.SIZE);
    }
}
