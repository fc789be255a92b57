package org.ompprof.calltree.build;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.ompprof.sampler.recording.ReadAhead;

/**
 * The threads one profile build uses: its own, which stitches and aggregates every sample in
 * order; with more than one, that many more that inflate and decode the recording's sections
 * ahead of it (its own mostly waits for them then), and one that asks llvm-symbolizer ahead
 * ({@link SymbolWarmup}), which mostly waits for that process. The profile is the same for any
 * count: only where the work runs changes.
 */
final class BuildThreads implements AutoCloseable {
    /** {@code -Dompprof.build.threads=N}: how many threads a build uses (default: one per core). */
    static final String PROPERTY = "ompprof.build.threads";

    /** Sections decoded ahead per decoding thread: enough to keep it busy, few enough to hold little. */
    private static final int DEPTH_PER_THREAD = 2;

    private final ExecutorService pool;
    private final ExecutorService waiting;
    private final ReadAhead ahead;

    private BuildThreads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("a build needs at least one thread, not " + threads);
        int decoders = threads == 1 ? 0 : threads;
        pool = decoders == 0 ? null : Executors.newFixedThreadPool(decoders, daemons("decode"));
        waiting = decoders == 0 ? null : Executors.newSingleThreadExecutor(daemons("symbolize"));
        ahead = pool == null ? ReadAhead.NONE : ReadAhead.on(pool, DEPTH_PER_THREAD * decoders + 1);
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

    /** Starts {@code work} on the thread for work that waits on other processes; false (not run) on one thread. */
    boolean startWaiting(Runnable work) {
        if (waiting == null) return false;
        waiting.execute(work);
        return true;
    }

    /** Work still running (a build that failed, a warm-up not needed) is stopped: its results are not wanted. */
    @Override
    public void close() {
        if (pool != null) pool.shutdownNow();
        if (waiting != null) waiting.shutdownNow();
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
