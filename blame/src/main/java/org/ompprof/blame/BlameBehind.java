package org.ompprof.blame;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.sampler.recording.Awaited;

/**
 * Blame computed on another thread, behind the building one: each sample's blame inputs (a few numbers) go over in
 * batches, in their order, and blame charges its windows there while the building thread aggregates the next
 * samples. Blame is half of what aggregating a sample costs (its windows' charging), and its inputs are all numbers:
 * its only use of the tree, release sites, waits until it has seen every sample ({@link ReleaseSites#resolve}).
 * Without a thread, blame runs in the building thread's calls, a batch at a time: its caller may time each batch,
 * where timing each sample cost as much as a tenth of blame.
 */
public final class BlameBehind {
    private static final int BATCH = 1024;
    /**
     * Batches handed over and not yet charged: enough to even out windows of uneven cost and blame's thread waiting for
     * a core (on 2 cores, the build's four threads share them), and to hold little (primitive arrays, 40 kB a batch).
     */
    private static final int IN_FLIGHT = 32;

    private final WindowedBlame blame;
    private final ExecutorService thread;
    private final Consumer<Runnable> inline;
    private final Semaphore room = new Semaphore(IN_FLIGHT);
    private SampleTable.Builder batch = new SampleTable.Builder();
    private Future<?> last;
    private boolean ended;
    /** What stopped blame on its thread (a RuntimeException or an Error); later work there is skipped. */
    private Throwable failure;

    /** Blame on {@code thread}, or in the caller's calls if it is null. */
    public BlameBehind(WindowedBlame blame, ExecutorService thread) {
        this(blame, thread, Runnable::run);
    }

    /** As {@link #BlameBehind(WindowedBlame, ExecutorService)}; without a thread, each batch runs by {@code inline}. */
    public BlameBehind(WindowedBlame blame, ExecutorService thread, Consumer<Runnable> inline) {
        this.blame = blame;
        this.thread = thread;
        this.inline = inline;
    }

    /** The next sample in time order (all threads merged). */
    public void add(int threadSeq, long timeNs, long weightNs, WaitClass c, long waitId, long regionId, int node) {
        batch.add(threadSeq, timeNs, weightNs, c, waitId, regionId, node);
        if (batch.size() == BATCH) send();
    }

    /**
     * No sample follows: blame charges its last windows on its thread while the building one goes on with other work
     * (nothing, without a thread).
     */
    public void end() {
        if (ended) return;
        ended = true;
        if (batch.size() > 0) send();
        if (thread != null) submit(blame::chargeRest);
    }

    /** Every charge, once blame has seen every sample; a failure on blame's thread is rethrown here. */
    public Charges finish() {
        end();
        if (last != null) Awaited.result(last);
        if (failure instanceof RuntimeException e) throw e;
        if (failure instanceof Error e) throw e;
        return blame.finish();
    }

    private void send() {
        SampleTable.Builder b = batch;
        batch = new SampleTable.Builder();
        if (thread == null) inline.accept(() -> blame.addAll(b));
        else submit(() -> blame.addAll(b));
    }

    /** Hands {@code work} to blame's thread once there is room; it runs there unless earlier work failed. */
    private void submit(Runnable work) {
        room.acquireUninterruptibly(); // blame's thread frees room whatever happens: no interrupt can leave it short
        last = thread.submit(() -> {
            try {
                if (failure == null) work.run();
            } catch (RuntimeException | Error e) {
                failure = e;
            } finally {
                room.release();
            }
        });
    }
}
