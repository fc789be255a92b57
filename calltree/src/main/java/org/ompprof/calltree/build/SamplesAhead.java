package org.ompprof.calltree.build;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/**
 * Samples taken on another thread, ahead of the building thread, handed over in their order in
 * batches: the building thread aggregates one batch while the next is merged from the stitched
 * sections (and its frames' names asked for, see {@code prepare}). What the building thread waits for counts as
 * stitching. A failure on the other thread is rethrown where its sample would have come.
 */
final class SamplesAhead<T> implements Iterator<T> {
    /**
     * Samples a handover: each costs a lock and often a thread's wake-up on both sides, which at 128 samples was a
     * tenth of a 2-thread build's CPU time.
     */
    private static final int BATCH = 1024;
    /**
     * Batches in flight: enough for the building thread to go on through a time slice of the other's (on 2 cores the
     * build's four threads share them), few enough to hold little.
     */
    private static final int QUEUED = 16;

    /** What the other thread hands over: samples, or the end, or the failure that ended it. */
    private record Handover<T>(List<T> samples, RuntimeException failure, Error error) {}

    private final BlockingQueue<Handover<T>> queue = new ArrayBlockingQueue<>(QUEUED);
    private final StageClock clock;
    private Iterator<T> current = Collections.emptyIterator();
    private boolean ended;

    private SamplesAhead(StageClock clock) {
        this.clock = clock;
    }

    /**
     * Starts consuming {@code source} on {@code thread}; each batch goes through {@code prepare} (on
     * that thread) before it is handed over.
     */
    static <T> SamplesAhead<T> start(
            ExecutorService thread, Iterator<T> source, Consumer<List<T>> prepare, StageClock clock) {
        SamplesAhead<T> ahead = new SamplesAhead<>(clock);
        thread.execute(() -> ahead.produce(source, prepare));
        return ahead;
    }

    private void produce(Iterator<T> source, Consumer<List<T>> prepare) {
        try {
            try {
                List<T> batch = new ArrayList<>(BATCH);
                while (source.hasNext()) {
                    batch.add(source.next());
                    if (batch.size() == BATCH) {
                        prepare.accept(batch);
                        queue.put(new Handover<>(batch, null, null));
                        batch = new ArrayList<>(BATCH);
                    }
                }
                prepare.accept(batch);
                if (!batch.isEmpty()) queue.put(new Handover<>(batch, null, null));
                queue.put(new Handover<>(List.of(), null, null));
            } catch (RuntimeException e) {
                queue.put(new Handover<>(List.of(), e, null));
            } catch (Error e) {
                queue.put(new Handover<>(List.of(), null, e));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the build was abandoned: nobody takes what is left
        }
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext() && !ended) current = nextBatch().iterator();
        return current.hasNext();
    }

    @Override
    public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return current.next();
    }

    /** Batch by batch, each by index: the building thread takes millions of samples here. */
    @Override
    public void forEachRemaining(Consumer<? super T> action) {
        current.forEachRemaining(action);
        while (!ended) {
            List<T> samples = nextBatch();
            for (int i = 0; i < samples.size(); i++) action.accept(samples.get(i));
        }
    }

    /** The next batch handed over (empty at the end), or the other thread's failure. */
    private List<T> nextBatch() {
        Handover<T> h = take();
        if (h.failure() != null) throw h.failure();
        if (h.error() != null) throw h.error();
        if (h.samples().isEmpty()) ended = true;
        return h.samples();
    }

    private Handover<T> take() {
        Stage was = clock.enter(Stage.STITCH);
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for stitched samples", e);
        } finally {
            clock.enter(was);
        }
    }
}
