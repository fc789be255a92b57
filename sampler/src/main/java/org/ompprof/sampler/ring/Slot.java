package org.ompprof.sampler.ring;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.RegionBatch;
import org.ompprof.sampler.record.TaskBatchPacking;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RingProd;
import org.ompprof.sampler.wire.Wire.SlotHeader;

/** One slot of the region: its header fields and its two rings. */
public final class Slot {
    private final MemorySegment region;
    private final int index;
    private final long base;
    private final RingReader sampleRing;
    private final RingReader eventRing;

    Slot(MemorySegment region, RegionLayout layout, int index) {
        this.region = region;
        this.index = index;
        this.base = layout.slotOffset(index);
        this.sampleRing = new RingReader(
                region,
                base + SlotHeader.SAMPLE_PROD,
                base + SlotHeader.SAMPLE_CONS,
                layout.sampleDataOffset(index),
                layout.sampleRingSize());
        this.eventRing = new RingReader(
                region,
                base + SlotHeader.EVENT_PROD,
                base + SlotHeader.EVENT_CONS,
                layout.eventDataOffset(index),
                layout.eventRingSize());
    }

    public int index() {
        return index;
    }

    public RingReader sampleRing() {
        return sampleRing;
    }

    public RingReader eventRing() {
        return eventRing;
    }

    /** {@code Wire.SLOT_*}, with acquire: what the owner wrote before it is visible. */
    public int state() {
        return Atomics.getAcquireInt(region, base + SlotHeader.STATE);
    }

    /**
     * Hands an ENDED slot back to the agent, if both rings are empty. The state is read first
     * (acquire), so the ring positions read after it include every record the owner wrote.
     */
    public boolean freeIfEndedAndDrained() {
        if (state() != Wire.SLOT_ENDED) return false;
        if (sampleRing.pending() != 0 || eventRing.pending() != 0) return false;
        return Atomics.casInt(region, base + SlotHeader.STATE, Wire.SLOT_ENDED, Wire.SLOT_FREE);
    }

    public int threadSeq() {
        return Atomics.getOpaqueInt(region, base + SlotHeader.THREAD_SEQ);
    }

    public int osTid() {
        return Atomics.getOpaqueInt(region, base + SlotHeader.OS_TID);
    }

    public int generation() {
        return Atomics.getOpaqueInt(region, base + SlotHeader.GENERATION);
    }

    public RingCounters sampleCounters() {
        return counters(base + SlotHeader.SAMPLE_PROD);
    }

    public RingCounters eventCounters() {
        return counters(base + SlotHeader.EVENT_PROD);
    }

    /** Records the sample ring's producer dropped so far (cheaper than {@link #sampleCounters()}). */
    public long sampleDropped() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.SAMPLE_PROD + RingProd.DROPPED);
    }

    public long eventDropped() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.EVENT_PROD + RingProd.DROPPED);
    }

    private RingCounters counters(long prod) {
        return new RingCounters(
                Atomics.getOpaqueLong(region, prod + RingProd.RECORDS),
                Atomics.getOpaqueLong(region, prod + RingProd.DROPPED),
                Atomics.getOpaqueLong(region, prod + RingProd.DROPPED_BYTES));
    }

    public long handlerCalls() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.HANDLER_CALLS);
    }

    public long handlerNs() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.HANDLER_NS);
    }

    /**
     * Bytes of sample records the handler wrote (with their padding): over {@link #handlerCalls()}, a record's mean
     * size.
     */
    public long sampleBytes() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.SAMPLE_BYTES);
    }

    public long reentered() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.REENTERED);
    }

    /** Mutex callbacks of uncontended acquisitions that wrote no record. */
    public long mutexSkipped() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.MUTEX_SKIPPED);
    }

    /** Samples that found the thread waiting for a mutex (which the agent then marked contended). */
    public long mutexMarked() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.MUTEX_MARKED);
    }

    /** Marks that found the agent's table of contended mutexes full. */
    public long mutexTableFull() {
        return Atomics.getOpaqueLong(region, base + SlotHeader.MUTEX_TABLE_FULL);
    }

    /** Adds this slot's handler-cost histogram to {@code into} (HIST_BUCKETS long counters). */
    public void addHistogram(long[] into) {
        for (int i = 0; i < Wire.HIST_BUCKETS; i++) {
            into[i] += Integer.toUnsignedLong(Atomics.getOpaqueInt(region, base + SlotHeader.HIST + 4L * i));
        }
    }

    /**
     * The regions the owner opened in contexts of shapes it had sent and not ended, the outermost
     * first, each as its same-shape begin at {@code timeNs}: the agent writes such a region's begin
     * with its end, which a program that died inside it never reached. Only for a slot still owned
     * once the program has exited (a thread that ends writes its open regions itself).
     */
    public List<ParallelBegin> leftOpen(long timeNs) {
        int n = Atomics.getOpaqueInt(region, base + SlotHeader.OPEN_REGIONS);
        if (state() != Wire.SLOT_OWNED || n <= 0 || n > Wire.OPEN_REGIONS) return List.of();
        List<ParallelBegin> out = new ArrayList<>(n);
        Context none = new Context(0, 0, 0, Wire.CTX_SAME_SHAPE, MemorySegment.ofArray(new byte[0]));
        for (int i = 0; i < n; i++) {
            long at = base + SlotHeader.OPEN_REGION + (long) i * Wire.OpenRegion.SIZEOF;
            out.add(new ParallelBegin(
                    threadSeq(),
                    timeNs,
                    Atomics.getOpaqueLong(region, at + Wire.OpenRegion.PARALLEL_ID),
                    Atomics.getOpaqueLong(region, at + Wire.OpenRegion.PARENT_TASK_ID),
                    Atomics.getOpaqueLong(region, at + Wire.OpenRegion.CODEPTR_RA),
                    0,
                    0,
                    0,
                    0,
                    Atomics.getOpaqueLong(region, at + Wire.OpenRegion.SHAPE),
                    none));
        }
        return out;
    }

    /**
     * The regions the owner ended and had not written yet, as the packed region batch it was making, stamped
     * {@code timeNs}; null if there are none, or if its bytes do not hold exactly its count of entries (the program
     * died between the writes of one entry). Only for a slot still owned once the program has exited.
     */
    public RegionBatch pendingRegions(long timeNs) {
        int count = Atomics.getOpaqueInt(region, base + SlotHeader.PENDING_COUNT);
        long bytes = Integer.toUnsignedLong(Atomics.getOpaqueInt(region, base + SlotHeader.PENDING_BYTES));
        if (state() != Wire.SLOT_OWNED || count <= 0 || bytes > Wire.PENDING_REGION_BYTES) return null;
        MemorySegment packed = MemorySegment.ofArray(new byte[(int) bytes]);
        MemorySegment.copy(region, base + SlotHeader.PENDING_REGION, packed, 0, bytes);
        return TaskBatchPacking.regionBatch(
                threadSeq(),
                timeNs,
                packed,
                count,
                Atomics.getOpaqueLong(region, base + SlotHeader.PENDING_BASE_PARALLEL_ID),
                Atomics.getOpaqueLong(region, base + SlotHeader.PENDING_BASE_END_NS));
    }
}
