package org.ompprof.sampler.ring;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.wire.Wire;

/**
 * A Java producer that writes a ring exactly as the agent's ring.c does (for tests, and to warm
 * up the drain path before a recording): records never wrap (a PAD fills the
 * ring's end first), a record that does not fit is dropped and counted, read_pos is loaded with
 * acquire and write_pos stored with release.
 */
public final class RingWriter {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;

    private final MemorySegment region;
    private final long prod;
    private final long cons;
    private final long data;
    private final long size;

    public RingWriter(MemorySegment region, long prodOffset, long consOffset, long dataOffset, long size) {
        this.region = region;
        this.prod = prodOffset;
        this.cons = consOffset;
        this.data = dataOffset;
        this.size = size;
    }

    /** Claims a slot for thread {@code seq} as the agent's slot_claim does: the drainer reads only claimed slots. */
    public static void claim(Region region, int slot, int seq, int osTid) {
        MemorySegment s = region.segment();
        long base = region.layout().slotOffset(slot);
        s.set(ValueLayout.JAVA_INT, base + Wire.SlotHeader.THREAD_SEQ, seq);
        s.set(ValueLayout.JAVA_INT, base + Wire.SlotHeader.OS_TID, osTid);
        long generation = base + Wire.SlotHeader.GENERATION;
        s.set(ValueLayout.JAVA_INT, generation, s.get(ValueLayout.JAVA_INT, generation) + 1);
        Atomics.setReleaseInt(s, base + Wire.SlotHeader.STATE, Wire.SLOT_OWNED);
    }

    public static RingWriter sampleRing(Region region, int slot) {
        RegionLayout l = region.layout();
        long base = l.slotOffset(slot);
        return new RingWriter(
                region.segment(),
                base + Wire.SlotHeader.SAMPLE_PROD,
                base + Wire.SlotHeader.SAMPLE_CONS,
                l.sampleDataOffset(slot),
                l.sampleRingSize());
    }

    public static RingWriter eventRing(Region region, int slot) {
        RegionLayout l = region.layout();
        long base = l.slotOffset(slot);
        return new RingWriter(
                region.segment(),
                base + Wire.SlotHeader.EVENT_PROD,
                base + Wire.SlotHeader.EVENT_CONS,
                l.eventDataOffset(slot),
                l.eventRingSize());
    }

    /** Writes one record (its bytes are taken as they are); false if the ring was full. */
    public boolean write(byte[] record) {
        return write(record, 1);
    }

    /**
     * Writes {@code count} records laid end to end as one block (a PAD goes before the block if it does not fit
     * the ring's end), as if written one by one with nothing read in between; false if the ring was full.
     */
    public boolean write(byte[] records, int count) {
        long w = region.get(LONG, prod + Wire.RingProd.WRITE_POS);
        long r = Atomics.getAcquireLong(region, cons + Wire.RingCons.READ_POS);
        long off = w & (size - 1);
        long contiguous = size - off;
        boolean pad = records.length > contiguous;
        long need = pad ? contiguous + records.length : records.length;
        if (w + need - r > size) {
            add(Wire.RingProd.DROPPED, count);
            add(Wire.RingProd.DROPPED_BYTES, records.length);
            return false;
        }
        if (pad) {
            copy(RecordEncoder.pad((int) contiguous), off);
            w += contiguous;
            off = 0;
        }
        copy(records, off);
        add(Wire.RingProd.RECORDS, count);
        Atomics.setReleaseLong(region, prod + Wire.RingProd.WRITE_POS, w + records.length);
        return true;
    }

    /** Writes raw bytes at the current position without any checks (to plant garbage). */
    public void writeRaw(byte[] bytes) {
        long w = region.get(LONG, prod + Wire.RingProd.WRITE_POS);
        copy(bytes, w & (size - 1));
        Atomics.setReleaseLong(region, prod + Wire.RingProd.WRITE_POS, w + bytes.length);
    }

    private void copy(byte[] bytes, long off) {
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, region, data + off, bytes.length);
    }

    private void add(long field, long n) {
        region.set(LONG, prod + field, region.get(LONG, prod + field) + n);
    }
}
