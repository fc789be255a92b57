package org.ompprof.calltree.build;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.ompprof.blame.BlameBehind;
import org.ompprof.sampler.recording.ReadAhead;

/**
 * The threads one profile build uses: its own, which aggregates every sample in order; with more
 * than one, another that merges the stitched samples in time order ahead of it ({@link
 * SamplesAhead}) and, before and after the samples, does work whose result the build takes later
 * ({@link Later}), one that computes blame behind it ({@link BlameBehind}), and {@code threads - 1}
 * that inflate and decode the recording's sections, and stitch their samples, ahead of both (where
 * they fall behind, the reader takes the next section on itself), and compress the timelines. The
 * profile is the same for any count: only where the work runs changes.
 */
final class BuildThreads implements AutoCloseable {
    /** {@code -Dompprof.build.threads=N}: how many threads a build uses (default: one per core). */
    static final String PROPERTY = "ompprof.build.threads";

    /**
     * Sections decoded (and their samples stitched) ahead per decoding thread: enough to even out sections of uneven
     * cost, and few, because what is held ahead is live objects that every young collection copies (at 32, a 2-thread
     * build's collections cost twice a 1-thread build's, with one core working, the other stopped).
     */
    private static final int DEPTH_PER_THREAD = 4;

    /**
     * As many, before the building thread takes its first samples: it waits for their names, and so for
     * llvm-symbolizer to read the debug info of the modules nearly every profile names (the C library's: 70 ms of a
     * core), time in which the decoding threads get this far ahead.
     */
    private static final int START_DEPTH_PER_THREAD = 64;

    /**
     * At most this many in all: the wait is the same on any machine, and on a big node the sections held ahead (about
     * 250 kB of stitched samples each) would otherwise grow with its cores.
     */
    private static final int MAX_START_DEPTH = 512;

    private final ExecutorService pool;
    private final ExecutorService stitching;
    private final ExecutorService blaming;
    private final ReadAhead ahead;

    private BuildThreads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("a build needs at least one thread, not " + threads);
        int decoders = threads - 1;
        pool = decoders == 0 ? null : Executors.newFixedThreadPool(decoders, daemons("decode"));
        stitching = decoders == 0 ? null : Executors.newSingleThreadExecutor(daemons("stitch"));
        blaming = decoders == 0 ? null : Executors.newSingleThreadExecutor(daemons("blame"));
        ahead = pool == null
                ? ReadAhead.NONE
                : ReadAhead.on(pool, DEPTH_PER_THREAD * decoders + 1, startDepth(decoders) + 1);
    }

    private static int startDepth(int decoders) {
        return Math.max(DEPTH_PER_THREAD * decoders, Math.min(START_DEPTH_PER_THREAD * decoders, MAX_START_DEPTH));
    }

    /** A build on {@code threads} threads (1: all on the caller's). */
    static BuildThreads start(int threads) {
        return new BuildThreads(threads);
    }

    /** The thread count {@link #PROPERTY} asks for, else the machine's cores. */
    static int fromProperty() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) return Runtime.getRuntime().availableProcessors();
        try {
            return Math.max(1, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " is a thread count, not " + v, e);
        }
    }

    /** A build all on the caller's thread. */
    static BuildThreads none() {
        return new BuildThreads(1);
    }

    ReadAhead readAhead() {
        return ahead;
    }

    /**
     * The threads that compress the timelines' runs ({@link org.ompprof.calltree.profile.TimelineStream#encodedOn}):
     * the decoding ones, which have a section's time for each; null for a build on one thread.
     */
    ExecutorService encoding() {
        return pool;
    }

    /** The thread that merges stitched samples ahead of the building one; null for a build on one thread. */
    ExecutorService stitching() {
        return stitching;
    }

    /** The thread blame runs on behind the building one ({@link BlameBehind}); null for a build on one thread. */
    ExecutorService blaming() {
        return blaming;
    }

    /**
     * A thread for work the building thread takes the result of later ({@link Later}): the stitching
     * one, idle while the recording is indexed and once the samples are in; null on one thread.
     */
    ExecutorService aside() {
        return stitching;
    }

    /** Work still running ahead (a build that failed) is stopped: its results are not wanted. */
    @Override
    public void close() {
        if (stitching != null) stitching.shutdownNow();
        if (blaming != null) blaming.shutdownNow();
        if (pool != null) pool.shutdownNow();
    }

    private static ThreadFactory daemons(String what) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "ompprof-build-" + what + "-" + n.incrementAndGet());
            t.setDaemon(true); // never keeps the JVM up after the build
            return t;
        };
    }
}
