package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.ompprof.sampler.record.Le;
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
    private RecordingBuilder() {}

    /** Writes the recording and renames it over {@code output}; returns its size in bytes. */
    public static long write(Path output, Metadata metadata, RunCollector collector, Drainer drainer, Region region)
            throws IOException {
        Spool spool = collector.spool();
        spool.flush();
        try (RecordingWriter w = RecordingWriter.create(output)) {
            w.metadata(metadata);
            w.threads(collector.threads());
            w.modules(collector.modules());
            w.stats(stats(collector, drainer, region));
            for (Map.Entry<Long, Spool.Span> image : collector.moduleImages().entrySet()) {
                try (InputStream in = spool.open(image.getValue())) {
                    w.moduleImage(image.getKey(), in);
                }
            }
            for (int seq : threadsWithRecords(spool)) writeThread(w, spool, seq);
            return w.commit();
        }
    }

    private static TreeSet<Integer> threadsWithRecords(Spool spool) {
        TreeSet<Integer> seqs = new TreeSet<>();
        for (long stream : spool.streams()) seqs.add((int) (stream >>> 1));
        return seqs;
    }

    /** Merges the thread's two streams, each already in time order, into one. */
    private static void writeThread(RecordingWriter w, Spool spool, int seq) throws IOException {
        Spool.RecordCursor samples = spool.cursor(Spool.stream(seq, RunCollector.SAMPLE_RING));
        Spool.RecordCursor events = spool.cursor(Spool.stream(seq, RunCollector.EVENT_RING));
        try (RecordingWriter.ThreadRecords out = w.threadRecords(seq)) {
            MemorySegment s = samples.next();
            MemorySegment e = events.next();
            while (s != null || e != null) {
                if (e == null || (s != null && time(s) < time(e))) {
                    out.add(s);
                    s = samples.next();
                } else {
                    out.add(e);
                    e = events.next();
                }
            }
        }
    }

    /** Every payload starts with its time. */
    private static long time(MemorySegment rec) {
        return Le.u64(rec, Wire.RecordHeader.SIZEOF);
    }

    static Stats stats(RunCollector collector, Drainer drainer, Region region) {
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
                drainer.malformed(),
                drainer.malformedExamples(),
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
