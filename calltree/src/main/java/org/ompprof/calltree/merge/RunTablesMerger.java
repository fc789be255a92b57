package org.ompprof.calltree.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.ompprof.calltree.profile.RunTables;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.RingStats;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;

/**
 * The run tables of merged profiles: each input's threads under their new numbers, the modules
 * of all (one entry per file and build id, renumbered), and the statistics added up, so that
 * {@code info} of a merge shows every thread and what all the runs cost and lost.
 */
final class RunTablesMerger {
    private final List<ThreadInfo> threads = new ArrayList<>();
    private final Map<String, ModuleInfo> modules = new LinkedHashMap<>();
    private long[] histogram;
    private long handlerCalls, handlerNs, reentered, noSlotDrops, disabledSignals, malformed;
    private long mutexSkipped, mutexMarked, mutexTableFull;
    private long sampleRingPeak, eventRingPeak; // the worst of the runs: rings are per run
    private final List<String> malformedExamples = new ArrayList<>();
    private final List<RingStats> rings = new ArrayList<>();
    private final LinkedHashSet<String> notCaptured = new LinkedHashSet<>();

    void add(RunTables run, int threadOffset) {
        for (ThreadInfo t : run.threads()) {
            threads.add(new ThreadInfo(
                    t.seq() + threadOffset,
                    t.osTid(),
                    t.threadType(),
                    t.slot(),
                    t.beginNs(),
                    t.endNs(),
                    t.firstNs(),
                    t.lastNs(),
                    t.samples(),
                    t.events(),
                    t.samplesDropped(),
                    t.eventsDropped(),
                    t.samplesByState()));
        }
        for (ModuleInfo m : run.modules()) modules.putIfAbsent(m.path() + '\0' + m.buildId(), m);
        Stats s = run.stats();
        long[] counts = s.histogram().counts();
        if (histogram == null) histogram = new long[counts.length];
        for (int i = 0; i < counts.length; i++) histogram[i] += counts[i];
        handlerCalls += s.handlerCalls();
        handlerNs += s.handlerNs();
        reentered += s.reentered();
        noSlotDrops += s.noSlotDrops();
        disabledSignals += s.disabledSignals();
        mutexSkipped += s.mutexSkipped();
        mutexMarked += s.mutexMarked();
        mutexTableFull += s.mutexTableFull();
        sampleRingPeak = Math.max(sampleRingPeak, s.sampleRingPeak());
        eventRingPeak = Math.max(eventRingPeak, s.eventRingPeak());
        malformed += s.malformed();
        malformedExamples.addAll(s.malformedExamples());
        rings.addAll(s.rings());
        notCaptured.addAll(s.modulesNotCaptured());
    }

    RunTables result(Map<String, String> metadata, int threadSpan) {
        Map<String, String> entries = new LinkedHashMap<>(metadata);
        entries.put(RunTables.THREAD_SPAN, Integer.toString(threadSpan));
        List<ModuleInfo> renumbered = new ArrayList<>();
        long id = 1;
        for (ModuleInfo m : modules.values()) {
            renumbered.add(new ModuleInfo(
                    id++,
                    m.path(),
                    m.flags(),
                    m.loadBias(),
                    m.ehFrameHdr(),
                    m.dev(),
                    m.ino(),
                    m.fileSize(),
                    m.mtimeNs(),
                    m.buildId(),
                    m.segments(),
                    m.loadNs(),
                    m.unloadNs(),
                    m.image(),
                    m.imagePath(),
                    m.imageLength(),
                    m.note()));
        }
        Stats stats = new Stats(
                histogram == null ? HandlerHistogram.empty() : new HandlerHistogram(histogram),
                handlerCalls,
                handlerNs,
                reentered,
                noSlotDrops,
                disabledSignals,
                malformed,
                malformedExamples,
                rings,
                List.copyOf(notCaptured),
                sampleRingPeak,
                eventRingPeak,
                mutexSkipped,
                mutexMarked,
                mutexTableFull);
        return new RunTables(new Metadata(entries), threads, renumbered, stats);
    }
}
