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
    /** A stretch's bytes as words, reused from drain to drain. */
    private long[] words = new long[0];

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
        long inspected = sink.inspected();
        while (problem == null && r != w) {
            long step = stretch(r, w, sink, inspected);
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

    /**
     * Consumes the records from position r to the write position or the ring's end, whichever is
     * first (records never wrap: a PAD fills the ring's end), handing them over in runs of one
     * thread's records. Returns the bytes consumed, or -1 with {@link #lastProblem} set after
     * handing over the good records before the bad one. Millions of records a second pass here
     * while the program runs: the stretch is copied at once into an array of 8-byte words (records
     * are 8-aligned), where each record's framing and thread are two array reads.
     */
    private long stretch(long r, long w, RingSink sink, long inspected) {
        long off = r & (size - 1);
        long bound = Math.min(w - r, size - off);
        long begin = data + off;
        long[] word = words(bound);
        MemorySegment.copy(region, Le.LONG, begin, word, 0, (int) (bound / Long.BYTES));
        int n = (int) (bound / Long.BYTES), runAt = 0, last = -1, runSeq = 0, count = 0;
        for (int k = 0; k < n; ) {
            long header = word[k];
            long recSize = framedSize(header, (long) (n - k) * Long.BYTES);
            int type = (int) (header >>> 32) & 0xffff;
            int seq = recSize > 0 && type != Wire.REC_PAD ? (int) word[k + 1] : 0; // THREAD_SEQ: bytes 8-11
            if (recSize < 0 || type == Wire.REC_PAD || (count > 0 && seq != runSeq)) {
                handOver(sink, begin, word, runSeq, runAt, k, count, last);
                if (recSize < 0) return -1;
                count = 0;
                runAt = type == Wire.REC_PAD ? k + (int) (recSize / Long.BYTES) : k;
            }
            if (type != Wire.REC_PAD) {
                if ((inspected & RingSink.bit(type)) != 0 && !inspect(begin + (long) k * Long.BYTES, recSize, sink)) {
                    handOver(sink, begin, word, runSeq, runAt, k, count, last);
                    return -1;
                }
                runSeq = seq;
                count++;
                last = k;
            }
            k += (int) (recSize / Long.BYTES);
        }
        handOver(sink, begin, word, runSeq, runAt, n, count, last);
        return bound;
    }

    /** This reader's word buffer, grown to hold {@code bytes}. */
    private long[] words(long bytes) {
        int n = (int) (bytes / Long.BYTES);
        if (words.length < n) words = new long[Math.max(n, Math.min(2 * words.length, (int) (size / Long.BYTES)))];
        return words;
    }

    /**
     * The size of the record whose header starts with {@code header} (size, type and version, as
     * the first eight bytes read little-endian) if it frames a record in {@code bound} bytes, else -1.
     */
    private long framedSize(long header, long bound) {
        if (bound < Wire.minRecordSize()) return fail("only " + bound + " bytes for a record header");
        long recSize = header & 0xffff_ffffL;
        if (recSize % 8 != 0 || recSize < Wire.minRecordSize() || recSize > bound)
            return fail("record size " + recSize + " with " + bound + " bytes available");
        int version = (int) (header >>> 48);
        if (version != Wire.REC_VERSION) return fail("record version " + version);
        int type = (int) (header >>> 32) & 0xffff;
        if (type == Wire.REC_PAD) return recSize;
        if (!Wire.isKnownRecordType(type)) return fail("unknown record type " + type);
        if (recSize < Wire.RecordHeader.SIZEOF + Long.BYTES)
            return fail("record size " + recSize + " is below the header and time");
        return recSize;
    }

    /** Hands the record at {@code at} to the sink; false, with {@link #lastProblem} set, if it is malformed. */
    private boolean inspect(long at, long recSize, RingSink sink) {
        MemorySegment rec = region.asSlice(at, recSize);
        String problem = RecordDecoder.problem(rec);
        if (problem != null) {
            lastProblem = problem;
            return false;
        }
        sink.record(rec);
        return true;
    }

    /**
     * Hands over the run of {@code count} records in words [{@code from}, {@code to}) of the stretch
     * at {@code begin}, the last at word {@code last}; every payload starts with its time.
     */
    private void handOver(RingSink sink, long begin, long[] word, int seq, int from, int to, int count, int last) {
        if (count == 0) return;
        int time = Wire.RecordHeader.SIZEOF / Long.BYTES;
        MemorySegment run = region.asSlice(begin + (long) from * Long.BYTES, (long) (to - from) * Long.BYTES);
        sink.run(seq, run, count, word[from + time], word[last + time]);
    }

    private long fail(String problem) {
        lastProblem = problem;
        return -1;
    }
}
