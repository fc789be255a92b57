package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.ompprof.sampler.mpi.MpiCallTotals;
import org.ompprof.sampler.record.AgentEnd;
import org.ompprof.sampler.record.AgentInfo;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.record.ModuleLoad;
import org.ompprof.sampler.record.ModuleUnload;
import org.ompprof.sampler.record.RecordDecoder;
import org.ompprof.sampler.record.ThreadBegin;
import org.ompprof.sampler.record.ThreadEnd;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.sampler.ring.RingSink;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RecordHeader;

/**
 * Takes the records the drainer reads: spools them all in bulk, counts samples per thread and
 * state from the raw bytes (they are not decoded), and decodes the few callback records that
 * matter while the program runs (threads, modules, agent info, MPI calls).
 *
 * <p>Written by the drainer thread only; the progress counters are volatile so that the
 * launcher's thread may read them, and everything else is read after the drainer has stopped.
 */
public final class RunCollector {
    static final int SAMPLE_RING = 0;
    static final int EVENT_RING = 1;
    /**
     * The callback records that must be acted on while the program runs, one bit per type; the
     * rest (millions a second in region-heavy codes) are spooled in bulk, unread.
     */
    private static final long INSPECTED_EVENTS = bits(
            Wire.REC_THREAD_BEGIN,
            Wire.REC_THREAD_END,
            Wire.REC_MODULE,
            Wire.REC_MODULE_UNLOAD,
            Wire.REC_AGENT_INFO,
            Wire.REC_AGENT_END,
            Wire.REC_MPI);

    private final Spool spool;
    private final ModuleCapture modules;
    private final TreeMap<Integer, ThreadAccumulator> threads = new TreeMap<>();
    private ThreadAccumulator lastThread;
    private final MpiCallTotals mpiCalls = new MpiCallTotals();
    private AgentInfo agentInfo;
    private AgentEnd agentEnd;
    private long records;
    private volatile long samples;
    private volatile long repeatedSamples;
    private volatile long dropped;
    private volatile int threadCount;

    public RunCollector(Spool spool, LongSupplier programPid, LongConsumer capturedHeldFds) {
        this.spool = spool;
        this.modules = new ModuleCapture(spool, programPid, capturedHeldFds);
    }

    /** What the drainer hands over from sample rings: every record, for the per-thread counts. */
    RingSink sampleSink() {
        return new RingSink() {
            @Override
            public long inspected() {
                return -1L;
            }

            @Override
            public void record(MemorySegment rec) {
                sample(rec);
            }

            @Override
            public void run(int threadSeq, MemorySegment records, int count, long firstNs, long lastNs) {
                spool(threadSeq, SAMPLE_RING, records);
            }
        };
    }

    /** What the drainer hands over from event rings: the few records acted on now, and runs to spool. */
    RingSink eventSink() {
        return new RingSink() {
            @Override
            public long inspected() {
                return INSPECTED_EVENTS;
            }

            @Override
            public void record(MemorySegment rec) {
                event(rec);
            }

            @Override
            public void run(int threadSeq, MemorySegment records, int count, long firstNs, long lastNs) {
                ThreadAccumulator t = thread(threadSeq);
                t.events += count;
                t.saw(firstNs);
                t.saw(lastNs);
                RunCollector.this.records += count;
                spool(threadSeq, EVENT_RING, records);
            }
        };
    }

    /** A validated record from a sample ring. */
    private void sample(MemorySegment rec) {
        int seq = Le.u32(rec, RecordHeader.THREAD_SEQ);
        records++;
        if (Le.u16(rec, RecordHeader.TYPE) != Wire.REC_SAMPLE) {
            thread(seq).events++; // the agent writes only samples here, but stay tolerant
            return;
        }
        int p = RecordHeader.SIZEOF;
        int flags = Le.u32(rec, p + Wire.Sample.FLAGS);
        thread(seq)
                .sample(
                        Le.u64(rec, p + Wire.Sample.TIME_NS),
                        Le.u32(rec, p + Wire.Sample.OS_TID),
                        Le.u32(rec, p + Wire.Sample.STATE),
                        Le.u64(rec, p + Wire.Sample.WEIGHT_NS),
                        (flags & Wire.SAMPLE_PERF) != 0);
        samples = samples + 1; // single writer
        if ((flags & Wire.SAMPLE_REPEAT) != 0) repeatedSamples = repeatedSamples + 1;
    }

    /** A validated event record of one of the {@link #INSPECTED_EVENTS} types. */
    private void event(MemorySegment rec) {
        int seq = Le.u32(rec, RecordHeader.THREAD_SEQ);
        ThreadAccumulator t = thread(seq);
        if (Le.u16(rec, RecordHeader.TYPE) == Wire.REC_MPI) {
            int p = RecordHeader.SIZEOF;
            mpiCalls.add(
                    seq,
                    Le.u64(rec, p + Wire.Mpi.TIME_NS),
                    Le.u16(rec, p + Wire.Mpi.CALL),
                    Byte.toUnsignedInt(rec.get(ValueLayout.JAVA_BYTE, p + Wire.Mpi.ENDPOINT)));
            return;
        }
        switch (RecordDecoder.decode(rec)) {
            case ThreadBegin b -> {
                t.osTid = b.osTid();
                t.threadType = b.threadType();
                t.slot = b.slot();
                t.beginNs = b.timeNs();
            }
            case ThreadEnd e -> t.endNs = e.timeNs();
            case ModuleLoad m -> modules.loaded(m);
            case ModuleUnload u -> modules.unloaded(u);
            case AgentInfo a -> agentInfo = a;
            case AgentEnd a -> agentEnd = a;
            default -> {}
        }
    }

    /** Records lost to full rings while thread {@code seq} owned them. */
    void dropped(int seq, long sampleRecords, long eventRecords) {
        if (sampleRecords == 0 && eventRecords == 0) return;
        ThreadAccumulator t = thread(seq);
        t.samplesDropped += sampleRecords;
        t.eventsDropped += eventRecords;
        dropped = dropped + sampleRecords + eventRecords;
    }

    private void spool(int seq, int ring, MemorySegment records) {
        try {
            spool.append(Spool.stream(seq, ring), records);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the spool file " + spool.path() + ": " + e.getMessage(), e);
        }
    }

    private ThreadAccumulator thread(int seq) {
        if (lastThread != null && lastThread.seq == seq)
            return lastThread; // records come a ring, so a thread, at a time
        ThreadAccumulator t = threads.get(seq);
        if (t == null) {
            t = new ThreadAccumulator(seq);
            threads.put(seq, t);
            threadCount = threads.size();
        }
        lastThread = t;
        return t;
    }

    /** Records taken from the rings, samples and callback records (drainer thread only). */
    long records() {
        return records;
    }

    public long samples() {
        return samples;
    }

    /** Of {@link #samples()}, those the agent sent as a repeat of the thread's sample before. */
    public long repeatedSamples() {
        return repeatedSamples;
    }

    /**
     * The rate sampling achieved: per thread, its samples per second of the time they stand for
     * (CPU time in cpu mode: a perf event's samples weigh the CPU time the kernel counted, a
     * timer's the periods that expired); threads with fewer than 20 samples say too little.
     */
    /** The MPI calls the records measured (after the drainer has stopped). */
    public MpiCallTotals mpiCalls() {
        return mpiCalls;
    }

    public SamplingRate samplingRate() {
        List<Double> rates = new ArrayList<>();
        long perf = 0, all = 0;
        for (ThreadAccumulator t : threads.values()) {
            perf += t.perfSamples;
            all += t.samples;
            if (t.samples >= 20 && t.weightNs > 0) rates.add(t.samples / (t.weightNs / 1e9));
        }
        return SamplingRate.of(rates, perf, all);
    }

    /** Records dropped because a ring was full (slot shortage is counted by the agent). */
    public long dropped() {
        return dropped;
    }

    public int threadCount() {
        return threadCount;
    }

    public Spool spool() {
        return spool;
    }

    public List<ThreadInfo> threads() {
        List<ThreadInfo> out = new ArrayList<>();
        for (ThreadAccumulator t : threads.values()) out.add(t.toInfo());
        return out;
    }

    public List<ModuleInfo> modules() {
        return modules.modules();
    }

    public Map<Long, Spool.Span> moduleImages() {
        return modules.images();
    }

    public List<String> modulesNotCaptured() {
        return modules.notCaptured();
    }

    public Optional<AgentInfo> agentInfo() {
        return Optional.ofNullable(agentInfo);
    }

    public Optional<AgentEnd> agentEnd() {
        return Optional.ofNullable(agentEnd);
    }

    private static long bits(int... types) {
        long b = 0;
        for (int t : types) b |= RingSink.bit(t);
        return b;
    }
}
