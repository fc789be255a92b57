package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.record.RecordDecoder;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.ring.Region;
import org.ompprof.sampler.ring.Slot;
import org.ompprof.sampler.wire.Wire;

/**
 * Turns a finished run (the spool, what the collector and drainer counted, the region's
 * counters) into a recording file. Each thread's sample and event records are merged by time,
 * so readers see one ordered stream per thread.
 */
public final class RecordingBuilder {
    private static final int EXAMPLES = 5;

    private RecordingBuilder() {}

    /** Writes the recording and renames it over {@code output}; returns its size in bytes. */
    public static long write(Path output, Metadata metadata, RunCollector collector, Drainer drainer, Region region)
            throws IOException {
        return write(output, metadata, collector, drainer, region, true);
    }

    /**
     * As {@link #write(Path, Metadata, RunCollector, Drainer, Region)}; unless {@code kept}, the
     * records go undeflated: a recording read once into the profile and deleted.
     */
    public static long write(
            Path output, Metadata metadata, RunCollector collector, Drainer drainer, Region region, boolean kept)
            throws IOException {
        Spool spool = collector.spool();
        spool.flush();
        try (RecordingWriter w = RecordingWriter.create(output)) {
            if (!kept) w.recordsUndeflated();
            w.metadata(metadata);
            w.threads(collector.threads());
            w.modules(collector.modules());
            for (Map.Entry<Long, Spool.Span> image : collector.moduleImages().entrySet()) {
                try (InputStream in = spool.open(image.getValue())) {
                    w.moduleImage(image.getKey(), in);
                }
            }
            Malformed malformed = new Malformed(drainer.malformed(), drainer.malformedExamples());
            for (int seq : threadsWithRecords(spool)) writeThread(w, spool, seq, malformed);
            w.stats(stats(collector, drainer, region, malformed));
            return w.commit();
        }
    }

    private static TreeSet<Integer> threadsWithRecords(Spool spool) {
        TreeSet<Integer> seqs = new TreeSet<>();
        for (long stream : spool.streams()) seqs.add((int) (stream >>> 1));
        return seqs;
    }

    /**
     * Malformed stretches: the drainer's, and the records whose contents do not hold together
     * (the drainer checks only their framing), each left out of the recording.
     */
    private static final class Malformed {
        long count;
        final List<String> examples;

        Malformed(long count, List<String> examples) {
            this.count = count;
            this.examples = new ArrayList<>(examples);
        }

        /** Whether {@code rec} is well formed; counts it if not. */
        boolean sound(MemorySegment rec, int seq) {
            String problem = RecordDecoder.problem(rec);
            if (problem == null) return true;
            count++;
            String example = "thread " + seq + ": " + problem + "; record left out";
            if (examples.size() < EXAMPLES && !examples.contains(example)) examples.add(example);
            return false;
        }
    }

    /** Merges the thread's two streams, each already in time order, into one; malformed records stay out. */
    private static void writeThread(RecordingWriter w, Spool spool, int seq, Malformed malformed) throws IOException {
        Spool.RecordCursor samples = spool.cursor(Spool.stream(seq, RunCollector.SAMPLE_RING));
        Spool.RecordCursor events = spool.cursor(Spool.stream(seq, RunCollector.EVENT_RING));
        try (RecordingWriter.ThreadRecords out = w.threadRecords(seq)) {
            MemorySegment s = samples.next();
            MemorySegment e = events.next();
            while (s != null || e != null) {
                if (e == null || (s != null && time(s) < time(e))) {
                    if (malformed.sound(s, seq)) out.add(s);
                    s = samples.next();
                } else {
                    if (malformed.sound(e, seq)) out.add(e);
                    e = events.next();
                }
            }
        }
    }

    /** Every payload starts with its time. */
    private static long time(MemorySegment rec) {
        return Le.u64(rec, Wire.RecordHeader.SIZEOF);
    }

    static Stats stats(RunCollector collector, Drainer drainer, Region region, Malformed malformed) {
        long[] hist = new long[Wire.HIST_BUCKETS];
        long calls = 0, ns = 0, reentered = 0, skipped = 0, marked = 0, full = 0, sampleBytes = 0;
        for (Slot s : region.slots()) {
            s.addHistogram(hist);
            calls += s.handlerCalls();
            ns += s.handlerNs();
            reentered += s.reentered();
            skipped += s.mutexSkipped();
            marked += s.mutexMarked();
            full += s.mutexTableFull();
            sampleBytes += s.sampleBytes();
        }
        return new Stats(
                new HandlerHistogram(hist),
                calls,
                ns,
                reentered,
                region.noSlotDrops(),
                region.disabledSignals(),
                malformed.count,
                List.copyOf(malformed.examples),
                drainer.ringStats(),
                collector.modulesNotCaptured(),
                drainer.samplePeak(),
                drainer.eventPeak(),
                skipped,
                marked,
                full,
                sampleBytes);
    }
}
