package org.ompprof.calltree.build;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.ompprof.blame.Charges;
import org.ompprof.blame.WindowedBlame;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.sampler.recording.Awaited;

/**
 * Blame computed on another thread, behind the building one: each sample's blame inputs (a few numbers) go over in
 * batches, in their order, and blame charges its windows there while the building thread aggregates the next
 * samples. Blame is half of what aggregating a sample costs (its windows' charging), and its inputs are all numbers:
 * its only use of the tree, release sites, waits until it has seen every sample ({@link ReleaseSiteNodes}). Without a
 * thread, blame runs in the building thread's calls.
 */
final class BlameBehind {
    private static final int BATCH = 1024;
    /** Batches handed over and not yet charged: enough to even out windows of uneven cost, and to hold little. */
    private static final int IN_FLIGHT = 8;

    private static final WaitClass[] CLASSES = WaitClass.values();

    private final WindowedBlame blame;
    private final ExecutorService thread;
    private final Semaphore room = new Semaphore(IN_FLIGHT);
    private Batch batch = new Batch();
    private Future<?> last;
    private boolean ended;
    /** What stopped blame on its thread; later batches are skipped (written and read there only). */
    private RuntimeException failure;

    private Error error;

    /** Blame on {@code thread}, or in the caller's calls if it is null. */
    BlameBehind(WindowedBlame blame, ExecutorService thread) {
        this.blame = blame;
        this.thread = thread;
    }

    /** The next sample in time order (all threads merged). */
    void add(int threadSeq, long timeNs, long weightNs, WaitClass c, long waitId, long regionId, int node) {
        if (thread == null) {
            blame.add(threadSeq, timeNs, weightNs, c, waitId, regionId, node);
            return;
        }
        batch.add(threadSeq, timeNs, weightNs, c, waitId, regionId, node);
        if (batch.size == BATCH) send();
    }

    /**
     * No sample follows: blame charges its last windows on its thread while the building one goes on with other work
     * (nothing, without a thread).
     */
    void end() {
        if (thread == null || ended) return;
        ended = true;
        if (batch.size > 0) send();
        room.acquireUninterruptibly();
        last = thread.submit(() -> run(blame::chargeRest));
    }

    /** Every charge, once blame has seen every sample; a failure on blame's thread is rethrown here. */
    Charges finish() {
        end();
        if (last != null) Awaited.result(last);
        if (failure != null) throw failure;
        if (error != null) throw error;
        return blame.finish();
    }

    private void send() {
        room.acquireUninterruptibly(); // blame's thread frees room whatever happens: no interrupt can leave it short
        Batch b = batch;
        batch = new Batch();
        last = thread.submit(() -> run(() -> b.feed(blame)));
    }

    private void run(Runnable work) {
        try {
            if (failure == null && error == null) work.run();
        } catch (RuntimeException e) {
            failure = e;
        } catch (Error e) {
            error = e;
        } finally {
            room.release();
        }
    }

    /** Samples' blame inputs, column by column. */
    private static final class Batch {
        final int[] thread = new int[BATCH], node = new int[BATCH];
        final long[] time = new long[BATCH], weight = new long[BATCH], waitId = new long[BATCH];
        final long[] region = new long[BATCH];
        final byte[] waitClass = new byte[BATCH];
        int size;

        void add(int threadSeq, long timeNs, long weightNs, WaitClass c, long id, long regionId, int at) {
            thread[size] = threadSeq;
            time[size] = timeNs;
            weight[size] = weightNs;
            waitClass[size] = (byte) c.ordinal();
            waitId[size] = id;
            region[size] = regionId;
            node[size] = at;
            size++;
        }

        void feed(WindowedBlame blame) {
            for (int i = 0; i < size; i++)
                blame.add(thread[i], time[i], weight[i], CLASSES[waitClass[i]], waitId[i], region[i], node[i]);
        }
    }
}
