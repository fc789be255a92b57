package org.ompprof.sampler.ring;

import java.lang.foreign.MemorySegment;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.record.RecordDecoder;
import org.ompprof.sampler.wire.Wire;

/**
 * The consumer side of one single-producer ring. Positions count bytes ever written/consumed;
 * the producer publishes {@code write_pos} with release after writing the bytes, so one acquire
 * load makes everything before it readable; our {@code read_pos} store (release) hands the
 * bytes back only after we have copied them.
 *
 * <p>A record the producer could not have written (bad size, type, version, contents) means the
 * ring's bytes cannot be trusted up to the current write position: the reader skips them all,
 * counts one malformed event and carries on with what comes next.
 */
public final class RingReader {
    private final MemorySegment region;
    private final long writePos;
    private final long readPos;
    private final long data;
    private final long size;
    private long malformed;
    private long peakPending;
    private String lastProblem;

    /**
     * @param prodOffset offset in {@code region} of the ring's {@code ompprof_ring_prod}
     * @param consOffset offset of its {@code ompprof_ring_cons}
     * @param dataOffset offset of its {@code size} data bytes
     */
    public RingReader(MemorySegment region, long prodOffset, long consOffset, long dataOffset, long size) {
        if (Long.bitCount(size) != 1) throw new IllegalArgumentException("ring size not a power of two: " + size);
        this.region = region;
        this.writePos = prodOffset + Wire.RingProd.WRITE_POS;
        this.readPos = consOffset + Wire.RingCons.READ_POS;
        this.data = dataOffset;
        this.size = size;
    }

    /**
     * The most bytes this reader found waiting in one look: how close the ring came to full
     * (a record is dropped when it would not fit).
     */
    public long peakPending() {
        return peakPending;
    }

    /** Bytes published by the producer and not yet consumed. */
    public long pending() {
        return Atomics.getAcquireLong(region, writePos) - Atomics.getOpaqueLong(region, readPos);
    }

    /** Malformed stretches skipped so far. */
    public long malformed() {
        return malformed;
    }

    /** What was wrong with the last malformed stretch, or null. */
    public String lastProblem() {
        return lastProblem;
    }

    /**
     * Hands every record published so far to {@code sink}, then releases their bytes to the
     * producer. Returns the number of bytes consumed (skipped ones included).
     */
    public long drain(RingSink sink) {
        long w = Atomics.getAcquireLong(region, writePos);
        long start = Atomics.getOpaqueLong(region, readPos); // only this reader stores it
        if (w == start) return 0;
        long r = start;
        String problem = positionProblem(start, w);
        if (problem == null && w - start > peakPending) peakPending = w - start;
        while (problem == null && r != w) {
            long step = step(r, w, sink);
            if (step < 0) {
                problem = lastProblem;
                break;
            }
            r += step;
        }
        if (problem != null) {
            malformed++;
            lastProblem = problem + " (ring position " + r + "); skipped " + (w - r) + " bytes";
            r = w;
        }
        Atomics.setReleaseLong(region, readPos, r);
        return Math.abs(r - start);
    }

    private String positionProblem(long r, long w) {
        long avail = w - r;
        if (avail < 0 || avail > size)
            return "write position " + w + " and read position " + r + " are " + avail + " bytes apart";
        if ((r & 7) != 0 || (w & 7) != 0) return "unaligned ring positions " + r + ", " + w;
        return null;
    }

    /** Consumes the record at position r; returns its size, or -1 with {@link #lastProblem} set. */
    private long step(long r, long w, RingSink sink) {
        long off = r & (size - 1);
        long bound = Math.min(w - r, size - off); // records never wrap: a PAD fills the ring's end
        if (bound < Wire.minRecordSize()) return fail("only " + bound + " bytes for a record header");
        long at = data + off; // the header is read in place: one slice per record, for the record itself
        long recSize = Integer.toUnsignedLong(Le.u32(region, at + Wire.RecordHeader.SIZE));
        int type = Le.u16(region, at + Wire.RecordHeader.TYPE);
        if (recSize % 8 != 0 || recSize < Wire.minRecordSize() || recSize > bound) {
            return fail("record size " + recSize + " with " + bound + " bytes available");
        }
        int version = Le.u16(region, at + Wire.RecordHeader.VERSION);
        if (version != Wire.REC_VERSION) return fail("record version " + version);
        if (type == Wire.REC_PAD) return recSize;
        if (recSize < Wire.RecordHeader.SIZEOF) return fail("record size " + recSize + " is below the header size");
        MemorySegment rec = region.asSlice(at, recSize);
        String problem = RecordDecoder.problem(rec);
        if (problem != null) return fail(problem);
        sink.record(rec);
        return recSize;
    }

    private long fail(String problem) {
        lastProblem = problem;
        return -1;
    }
}
