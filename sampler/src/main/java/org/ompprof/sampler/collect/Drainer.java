package org.ompprof.sampler.collect;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.RegionBatch;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.RingStats;
import org.ompprof.sampler.ring.Region;
import org.ompprof.sampler.ring.RingCounters;
import org.ompprof.sampler.ring.RingReader;
import org.ompprof.sampler.ring.RingSink;
import org.ompprof.sampler.ring.Slot;
import org.ompprof.sampler.wire.Wire;

/**
 * The one thread that empties every slot's rings while the program runs. The machines this
 * runs on may have two cores, shared with the program, and every wake-up preempts one of the
 * program's threads: so it wakes every 20 ms (a ring holds well over 100 ms of records), and
 * sooner only while a pass finds a ring an eighth full. It also unlinks the region
 * file as soon as the agent mapped it.
 */
public final class Drainer implements AutoCloseable {
    private static final long PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long HURRY_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A ring found this full at one look: at this pace it would fill within a few periods. */
    private static final double HURRY_FILL = 1.0 / 8;

    private static final int MALFORMED_EXAMPLES = 5;

    private final Region region;
    private final RunCollector collector;
    /** Per slot, the producer counters last seen and their growth summed over the run. */
    private final RingCounters[] lastSample;

    private final RingCounters[] lastEvent;
    private final RingCounters[] totalSample;
    private final RingCounters[] totalEvent;
    private final int[] lastOwner;
    private final List<String> malformedExamples = new ArrayList<>();
    private final RingSink sampleSink;
    private final RingSink eventSink;
    private final Thread thread;
    /** This pass: rings that held records, the most bytes one held, the highest ratio to its size. */
    private int passRings;

    private long passPeakBytes;
    private double passPeakFill;
    private long lastNoSlotDrops;
    /** False for the warm-up's synthetic records, which are no part of the run's figures. */
    private boolean reporting = true;

    private volatile boolean stopping;
    private volatile Throwable failure;

    public Drainer(Region region, RunCollector collector) {
        this.region = region;
        this.collector = collector;
        int n = region.slots().size();
        lastSample = filled(n);
        lastEvent = filled(n);
        totalSample = filled(n);
        totalEvent = filled(n);
        lastOwner = new int[n];
        sampleSink = collector.sampleSink();
        eventSink = collector.eventSink();
        thread = Thread.ofPlatform().name("ompprof-drainer").daemon().unstarted(this::loop);
    }

    private static RingCounters[] filled(int n) {
        RingCounters[] a = new RingCounters[n];
        Arrays.fill(a, RingCounters.ZERO);
        return a;
    }

    /**
     * Commits no JFR events (for the warm-up). While JFR records, each pass still asks whether the event is on: the
     * first asking registers the event class with JFR (46 ms of CPU, and the JIT's after it), which belongs before
     * the program. Without JFR the class is never loaded (JfrRecording).
     */
    void quiet() {
        reporting = false;
    }

    public void start() {
        region.setJvmState(Wire.JVM_DRAINING);
        thread.start();
    }

    private void loop() {
        try {
            while (!stopping) {
                region.unlinkIfMapped();
                drainOnce();
                LockSupport.parkNanos(passPeakFill > HURRY_FILL ? HURRY_NS : PERIOD_NS);
            }
        } catch (Throwable t) {
            failure = t; // reported by finish(); the program runs on, its records are dropped
            region.setJvmState(Wire.JVM_STOPPED); // so the agent does not wait for module captures at exit
        }
    }

    /**
     * Stops the thread and drains what is left: the program has exited, but the region still
     * holds everything it wrote. Throws what stopped the drainer early, if anything did.
     */
    public void finish() throws InterruptedException {
        stopping = true;
        LockSupport.unpark(thread);
        thread.join();
        if (failure == null) {
            try {
                while (drainOnce() > 0) {
                    // until empty: freeing ENDED slots can reveal nothing new, but be thorough
                }
                writeLeftOpen();
            } catch (RuntimeException | Error e) {
                failure = e;
            }
        }
        region.setJvmState(Wire.JVM_STOPPED);
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error e) throw e;
        if (failure != null) throw new IllegalStateException(failure);
    }

    /**
     * Writes what the program's threads had not written of their regions when it died, to their
     * threads' streams: the ended regions still in the batch a thread was making ({@link
     * Slot#pendingRegions}) and the begins of those left open ({@link Slot#leftOpen}). Without
     * them, the samples in those regions would have no creation context.
     */
    private void writeLeftOpen() {
        long now = System.nanoTime(); // CLOCK_MONOTONIC, the agent's clock: after each of its records
        for (Slot slot : region.slots()) {
            RegionBatch pending = slot.pendingRegions(now);
            if (pending != null) write(pending);
            slot.leftOpen(now).forEach(this::write);
        }
    }

    /** A record of the agent's that the JVM makes, as the drainer hands on one it read from a ring. */
    private void write(WireRecord r) {
        MemorySegment rec = MemorySegment.ofArray(RecordEncoder.encode(r));
        if ((eventSink.inspected() & (1L << r.type())) != 0) eventSink.record(rec);
        eventSink.run(r.threadSeq(), rec, 1, r.timeNs(), r.timeNs());
    }

    /** One pass over all slots; returns the bytes consumed. */
    long drainOnce() {
        RingDrainEvent event = JfrRecording.active() && RingDrainEvent.on() && reporting
                ? new RingDrainEvent()
                : null; // nothing allocated when JFR is off
        if (event != null) event.begin();
        long records = collector.records();
        passRings = 0;
        passPeakBytes = 0;
        passPeakFill = 0;
        long bytes = 0;
        for (Slot slot : region.slots()) bytes += drain(slot);
        noSlotDrops();
        if (event != null && bytes > 0) {
            event.end();
            if (event.shouldCommit()) {
                event.records = collector.records() - records;
                event.bytes = bytes;
                event.rings = passRings;
                event.peakFillBytes = passPeakBytes;
                event.peakFill = passPeakFill;
                event.commit();
            }
        }
        return bytes;
    }

    /** Records the agent dropped for want of a slot since the last pass (it counts them, we report them). */
    private void noSlotDrops() {
        long n = region.noSlotDrops();
        if (n > lastNoSlotDrops && JfrRecording.active())
            DropEvent.commit(0, DropEvent.NO_SLOT, n - lastNoSlotDrops, 0);
        lastNoSlotDrops = n;
    }

    private long drain(Slot slot) {
        int i = slot.index();
        if (slot.generation() == 0 && slot.state() == Wire.SLOT_FREE) return 0; // never claimed: nothing to read
        long sampleBytes = slot.sampleRing().drain(sampleSink);
        long eventBytes = slot.eventRing().drain(eventSink);
        long bytes = sampleBytes + eventBytes;
        if (bytes > 0)
            pass(
                    sampleBytes,
                    region.layout().sampleRingSize(),
                    eventBytes,
                    region.layout().eventRingSize());
        noteMalformed(slot.sampleRing());
        noteMalformed(slot.eventRing());
        attributeDrops(slot, bytes > 0);
        if (slot.freeIfEndedAndDrained()) lastOwner[i] = 0;
        return bytes;
    }

    /** The pass's tally: a ring's bytes consumed are what was waiting in it when the drainer looked. */
    private void pass(long sampleBytes, long sampleRing, long eventBytes, long eventRing) {
        for (int k = 0; k < 2; k++) {
            long b = k == 0 ? sampleBytes : eventBytes;
            if (b == 0) continue;
            passRings++;
            passPeakBytes = Math.max(passPeakBytes, b);
            passPeakFill = Math.max(passPeakFill, (double) b / (k == 0 ? sampleRing : eventRing));
        }
    }

    /** Drops since the last look go to the slot's current owner (or its last one, if it left). */
    private void attributeDrops(Slot slot, boolean consumed) {
        int i = slot.index();
        int owner = slot.threadSeq();
        if (owner != 0) lastOwner[i] = owner;
        if (!consumed
                && slot.sampleDropped() == lastSample[i].dropped()
                && slot.eventDropped() == lastEvent[i].dropped()) {
            return; // nothing new: spare the allocations on this path, it runs for every slot every pass
        }
        RingCounters s = slot.sampleCounters();
        RingCounters e = slot.eventCounters();
        RingCounters ds = s.since(lastSample[i]);
        RingCounters de = e.since(lastEvent[i]);
        lastSample[i] = s;
        lastEvent[i] = e;
        totalSample[i] = totalSample[i].plus(ds);
        totalEvent[i] = totalEvent[i].plus(de);
        collector.dropped(lastOwner[i], ds.dropped(), de.dropped());
        if (ds.dropped() + de.dropped() > 0 && JfrRecording.active())
            DropEvent.commit(lastOwner[i], DropEvent.RING_FULL, ds.dropped(), de.dropped());
    }

    private void noteMalformed(RingReader ring) {
        // the reader keeps counting; remember a few distinct problems for the recording's stats
        if (ring.lastProblem() != null
                && malformedExamples.size() < MALFORMED_EXAMPLES
                && !malformedExamples.contains(ring.lastProblem())) {
            malformedExamples.add(ring.lastProblem());
        }
    }

    /** Malformed stretches skipped, over all rings. */
    public long malformed() {
        long n = 0;
        for (Slot s : region.slots())
            n += s.sampleRing().malformed() + s.eventRing().malformed();
        return n;
    }

    public List<String> malformedExamples() {
        return List.copyOf(malformedExamples);
    }

    /** The most bytes found waiting in any slot's sample ring at one look. */
    public long samplePeak() {
        return region.slots().stream()
                .mapToLong(s -> s.sampleRing().peakPending())
                .max()
                .orElse(0);
    }

    /** The most bytes found waiting in any slot's event ring at one look. */
    public long eventPeak() {
        return region.slots().stream()
                .mapToLong(s -> s.eventRing().peakPending())
                .max()
                .orElse(0);
    }

    /** Per slot: records written and dropped over the whole run. */
    public List<RingStats> ringStats() {
        List<RingStats> out = new ArrayList<>();
        for (int i = 0; i < totalSample.length; i++) {
            RingCounters s = totalSample[i];
            RingCounters e = totalEvent[i];
            if (s.records() + s.dropped() + e.records() + e.dropped() == 0) continue;
            out.add(new RingStats(
                    i, s.records(), s.dropped(), s.droppedBytes(), e.records(), e.dropped(), e.droppedBytes()));
        }
        return out;
    }

    /** Stops the thread without draining (error paths). */
    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
