package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

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
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RecordHeader;

/**
 * Takes the records the drainer reads: spools them all, counts samples per thread and state
 * from the raw bytes (samples are many, so they are not decoded), and decodes the few callback
 * records that matter while the program runs (threads, modules, agent info).
 *
 * <p>Written by the drainer thread only; the progress counters are volatile so that the
 * launcher's thread may read them, and everything else is read after the drainer has stopped.
 */
public final class RunCollector {
    static final int SAMPLE_RING = 0;
    static final int EVENT_RING = 1;
    /** The callback records that must be acted on while the program runs. */
    private static final Set<Integer> NEEDED_NOW = Set.of(Wire.REC_THREAD_BEGIN, Wire.REC_THREAD_END, Wire.REC_MODULE,
            Wire.REC_MODULE_UNLOAD, Wire.REC_AGENT_INFO, Wire.REC_AGENT_END);

    private final Spool spool;
    private final ModuleCapture modules;
    private final TreeMap<Integer, ThreadAccumulator> threads = new TreeMap<>();
    private AgentInfo agentInfo;
    private AgentEnd agentEnd;
    private volatile long samples;
    private volatile long dropped;
    private volatile int threadCount;

    public RunCollector(Spool spool, LongSupplier programPid, LongConsumer capturedHeldFds) {
        this.spool = spool;
        this.modules = new ModuleCapture(spool, programPid, capturedHeldFds);
    }

    /** A validated record from a sample ring. */
    void sample(MemorySegment rec) {
        int seq = Le.u32(rec, RecordHeader.THREAD_SEQ);
        spoolRecord(seq, SAMPLE_RING, rec);
        if (Le.u16(rec, RecordHeader.TYPE) != Wire.REC_SAMPLE) {
            thread(seq).events++; // the agent writes only samples here, but stay tolerant
            return;
        }
        int p = RecordHeader.SIZEOF;
        thread(seq).sample(Le.u64(rec, p + Wire.Sample.TIME_NS), Le.u32(rec, p + Wire.Sample.OS_TID), Le.u32(rec, p + Wire.Sample.STATE),
                Le.u64(rec, p + Wire.Sample.WEIGHT_NS), (Le.u32(rec, p + Wire.Sample.FLAGS) & Wire.SAMPLE_PERF) != 0);
        samples = samples + 1; // single writer
    }

    /** A validated record from an event ring. */
    void event(MemorySegment rec) {
        int seq = Le.u32(rec, RecordHeader.THREAD_SEQ);
        spoolRecord(seq, EVENT_RING, rec);
        ThreadAccumulator t = thread(seq);
        t.events++;
        t.saw(Le.u64(rec, RecordHeader.SIZEOF)); // every payload starts with its time
        if (!NEEDED_NOW.contains(Le.u16(rec, RecordHeader.TYPE))) return; // task records carry stacks: not worth decoding here
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
            default -> { }
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

    private void spoolRecord(int seq, int ring, MemorySegment rec) {
        try {
            spool.appendRecord(Spool.stream(seq, ring), rec);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the spool file " + spool.path() + ": " + e.getMessage(), e);
        }
    }

    private ThreadAccumulator thread(int seq) {
        ThreadAccumulator t = threads.get(seq);
        if (t == null) {
            t = new ThreadAccumulator(seq);
            threads.put(seq, t);
            threadCount = threads.size();
        }
        return t;
    }

    public long samples() {
        return samples;
    }

    /**
     * The rate sampling achieved: per thread, its samples per second of the time they stand for
     * (CPU time in cpu mode: a perf event's samples weigh the CPU time the kernel counted, a
     * timer's the periods that expired); threads with fewer than 20 samples say too little.
     */
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
}
