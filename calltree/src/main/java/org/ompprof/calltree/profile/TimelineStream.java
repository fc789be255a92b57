package org.ompprof.calltree.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.sampler.recording.Awaited;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.RecordingWriter.EncodedSection;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * Where the timelines go while a profile is built: kept in memory (for a profile that is looked
 * at, not written), or written to the profile file as they grow. Written, they are buffered per
 * thread and all buffers go out as runs (TIMELINE sections, which readers join per thread in file
 * order) whenever together they hold {@code budget} samples: memory is the budget, not the run.
 * Either way the timelines may be downsampled on the way ({@link TimelineDownsampler}).
 */
public final class TimelineStream {
    /**
     * About 24 bytes a sample in the buffers (up to twice that while a buffer grows): some 6 to 12
     * MB; each flush writes a run per thread, so runs stay large enough to compress well.
     */
    public static final int DEFAULT_BUDGET = 1 << 18;

    private final RecordingWriter out;
    private final int budget;
    private final IntObjectHashMap<Timeline.Builder> buffers = new IntObjectHashMap<>();
    private final IntObjectHashMap<TimelineDownsampler> downsamplers = new IntObjectHashMap<>();
    private long resolutionNs;
    private StageClock clock = StageClock.off();
    private final List<Timeline> kept = new ArrayList<>();
    /** Where runs are compressed: null, where they are written. */
    private Executor encoders;
    /** The last flush's runs, in the order they go into the file, being compressed. */
    private final ArrayDeque<FutureTask<EncodedSection>> encoding = new ArrayDeque<>();

    private int buffered;
    private long written;

    private TimelineStream(RecordingWriter out, int budget) {
        if (budget <= 0) throw new IllegalArgumentException("budget of " + budget + " samples");
        this.out = out;
        this.budget = budget;
    }

    /** Timelines kept whole in memory, returned by {@link #finish()}. */
    public static TimelineStream inMemory() {
        return new TimelineStream(null, Integer.MAX_VALUE);
    }

    /** Timelines written to {@code out} in runs, holding at most {@code budget} samples at a time. */
    public static TimelineStream to(RecordingWriter out, int budget) {
        return new TimelineStream(out, budget);
    }

    /** This stream, keeping one entry per thread per {@code resolutionNs} (0: every sample). */
    public TimelineStream downsampled(long resolutionNs) {
        if (resolutionNs < 0) throw new IllegalArgumentException("timeline resolution of " + resolutionNs + " ns");
        this.resolutionNs = resolutionNs;
        return this;
    }

    /**
     * This stream, compressing the runs it writes on {@code encoders} (if not null) while the samples after them come
     * in: runs are appended at the next flush, in the same order, so the file is the same byte for byte. Without
     * encoders a flush compresses and appends its runs itself.
     */
    public TimelineStream encodedOn(Executor encoders) {
        this.encoders = encoders;
        return this;
    }

    /** This stream, accounting its writes to {@code clock}'s write stage. */
    public TimelineStream timed(StageClock clock) {
        this.clock = clock;
        return this;
    }

    /** The next sample of a thread (each thread's in time order). */
    public void add(int thread, long timeNs, int node, int state, long weightNs) {
        if (resolutionNs == 0) {
            buffer(thread, timeNs, node, state, weightNs);
            return;
        }
        TimelineDownsampler d = downsamplers.get(thread); // as in buffer: no lambda made a sample
        if (d == null)
            downsamplers.put(
                    thread, d = new TimelineDownsampler(resolutionNs, (t, n, s, w) -> buffer(thread, t, n, s, w)));
        d.add(timeNs, node, state, weightNs);
    }

    private void buffer(int thread, long timeNs, int node, int state, long weightNs) {
        Timeline.Builder b = buffers.get(thread); // no lambda capturing the thread a sample (C1 allocates it)
        if (b == null) buffers.put(thread, b = new Timeline.Builder(thread));
        b.add(timeNs, node, state, weightNs);
        if (++buffered >= budget) flush();
    }

    /** Samples written to the file so far. */
    public long written() {
        return written;
    }

    /** Kept in memory: every thread's timeline, by thread. Written: the rest goes out, and the list is empty. */
    public List<Timeline> finish() {
        downsamplers.forEachValue(TimelineDownsampler::finish);
        if (out != null) {
            flush();
            write(this::appendEncoded);
            return List.of();
        }
        for (int thread : buffers.keySet().toSortedArray())
            kept.add(buffers.get(thread).build());
        buffers.clear();
        return List.copyOf(kept);
    }

    private void flush() {
        if (out == null) return;
        write(() -> {
            appendEncoded();
            for (int thread : buffers.keySet().toSortedArray()) {
                Timeline run = buffers.get(thread).build();
                for (Supplier<EncodedSection> section : ProfileWriter.timelineSections(run)) {
                    FutureTask<EncodedSection> task = new FutureTask<>(section::get);
                    encoding.addLast(task);
                    if (encoders != null) encoders.execute(task);
                }
                written += run.size();
            }
            if (encoders == null) appendEncoded(); // now: nothing would compress them meanwhile
        });
        buffers.clear();
        buffered = 0;
    }

    /**
     * The runs of the last flush, appended in order; one the encoders have not begun is compressed here, and while
     * they finish one, this thread takes on the next ones rather than wait.
     */
    private void appendEncoded() throws IOException {
        while (!encoding.isEmpty()) {
            FutureTask<EncodedSection> next = encoding.removeFirst();
            next.run(); // does nothing if an encoder has begun it
            for (Iterator<FutureTask<EncodedSection>> later = encoding.iterator(); !next.isDone() && later.hasNext(); )
                later.next().run();
            out.append(Awaited.result(next));
        }
    }

    private interface Write {
        void run() throws IOException;
    }

    /** Writing to the file, accounted to the write stage. */
    private void write(Write w) {
        Stage was = clock.enter(Stage.WRITE);
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            clock.enter(was);
        }
    }
}
