package org.ompprof.sampler.collect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.ompprof.sampler.record.RecordDecoder;
import org.ompprof.sampler.record.RepeatedSamples;
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
     * records and module images go undeflated: a recording read once into the profile and deleted.
     */
    public static long write(
            Path output, Metadata metadata, RunCollector collector, Drainer drainer, Region region, boolean kept)
            throws IOException {
        Spool spool = collector.spool();
        spool.flush();
        try (RecordingWriter w = RecordingWriter.create(output)) {
            if (!kept) w.forOneRead();
            w.metadata(metadata);
            w.threads(collector.threads());
            w.modules(collector.modules());
            for (Map.Entry<Long, Spool.Span> image : collector.moduleImages().entrySet()) {
                try (InputStream in = spool.open(image.getValue())) {
                    w.moduleImage(image.getKey(), in);
                }
            }
            Malformed malformed = new Malformed(drainer.malformed(), drainer.malformedExamples());
            writeThreads(w, spool, threadsWithRecords(spool), malformed);
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

        /** Whether the stream's current record is well formed; counts it if not. Threads' writers share this. */
        boolean sound(Stream rec, int seq) {
            String problem = rec.problem();
            if (problem == null) return true;
            synchronized (this) {
                noteBad(seq, problem);
            }
            return false;
        }

        private void noteBad(int seq, String problem) {
            count++;
            String example = "thread " + seq + ": " + problem + "; record left out";
            if (examples.size() < EXAMPLES && !examples.contains(example)) examples.add(example);
        }
    }

    /**
     * Writes every thread's records, several threads at once (one per core): the program has ended and left the
     * cores to us, and each record is read back, checked and copied here, a region-heavy run's millions of them.
     */
    private static void writeThreads(RecordingWriter w, Spool spool, Collection<Integer> seqs, Malformed malformed)
            throws IOException {
        int workers = Math.min(seqs.size(), Runtime.getRuntime().availableProcessors());
        if (workers <= 1) {
            for (int seq : seqs) writeThread(w, spool, seq, malformed);
            return;
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(
                workers, Thread.ofPlatform().name("ompprof-write-", 1).daemon().factory())) {
            List<Future<?>> done = new ArrayList<>();
            for (int seq : seqs)
                done.add(pool.submit(() -> {
                    writeThread(w, spool, seq, malformed);
                    return null;
                }));
            for (Future<?> f : done) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the recording", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IOException("writing the recording failed: " + e.getCause(), e.getCause());
        }
    }

    /** Merges the thread's two streams, each already in time order, into one; malformed records stay out. */
    private static void writeThread(RecordingWriter w, Spool spool, int seq, Malformed malformed) throws IOException {
        Stream samples = new Stream(spool.cursor(Spool.stream(seq, RunCollector.SAMPLE_RING)));
        Stream events = new Stream(spool.cursor(Spool.stream(seq, RunCollector.EVENT_RING)));
        try (RecordingWriter.ThreadRecords out = w.threadRecords(seq)) {
            boolean s = samples.advance();
            boolean e = events.advance();
            while (s || e) {
                Stream next = !e || (s && samples.time() < events.time()) ? samples : events;
                if (malformed.sound(next, seq)) out.add(next.cursor.bytes(), next.cursor.at(), next.cursor.size());
                if (next == samples) s = samples.advance();
                else e = events.advance();
            }
        }
    }

    /** One stream's records as the merge reads them, in the spool's blocks. */
    private static final class Stream {
        final Spool.RecordCursor cursor;
        private RecordDecoder.InArray reader;
        private boolean wholeSample;

        Stream(Spool.RecordCursor cursor) {
            this.cursor = cursor;
        }

        boolean advance() throws IOException {
            if (!cursor.advance()) return false;
            if (reader == null || !reader.reads(cursor.bytes())) reader = new RecordDecoder.InArray(cursor.bytes());
            return true;
        }

        long time() {
            return reader.time(cursor.at());
        }

        /** Why the current record is not sound, or null; it is sound and a whole sample: a repeat may follow it. */
        String problem() {
            String problem = reader.problem(cursor.at(), cursor.size());
            if (problem != null) return problem;
            if (RepeatedSamples.isWholeSample(cursor.bytes(), cursor.at(), cursor.size())) wholeSample = true;
            else if (!wholeSample && RepeatedSamples.isRepeat(cursor.bytes(), cursor.at(), cursor.size()))
                return "a repeated sample with no sample before it";
            return null;
        }
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
