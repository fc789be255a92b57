package org.ompprof.sampler.recording;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * The results of {@code jobs} in their order, each job run either on the reader's thread when
 * its result is asked for or, with a parallel {@link ReadAhead}, up to its depth ahead on its
 * pool; a job the pool has not started when its result is wanted runs on the reader's thread,
 * and while the pool finishes it, the reader runs the next ones not started, rather than wait.
 * A job's exception is rethrown (unwrapped) where its result would have been returned, so a
 * reader sees the same results and the same failure either way.
 */
final class InOrderAhead<T> implements Iterator<T> {
    private final List<Supplier<T>> jobs;
    private final ReadAhead ahead;
    private final ArrayDeque<FutureTask<T>> running = new ArrayDeque<>();
    private int submitted;
    private int taken;

    InOrderAhead(List<Supplier<T>> jobs, ReadAhead ahead) {
        this.jobs = jobs;
        this.ahead = ahead;
        fill();
    }

    @Override
    public boolean hasNext() {
        return taken < jobs.size();
    }

    @Override
    public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        if (!ahead.isParallel()) return jobs.get(taken++).get();
        FutureTask<T> f = running.removeFirst();
        taken++;
        fill();
        f.run(); // does nothing if the pool has started it
        // While the pool finishes it, the reader takes on the next ones rather than wait.
        for (Iterator<FutureTask<T>> later = running.iterator(); !f.isDone() && later.hasNext(); )
            later.next().run();
        return Awaited.result(f);
    }

    private void fill() {
        if (!ahead.isParallel()) return;
        while (submitted < jobs.size() && running.size() < ahead.depthAfter(taken)) {
            FutureTask<T> task = new FutureTask<>(jobs.get(submitted++)::get);
            ahead.pool().execute(task);
            running.addLast(task);
        }
    }
}
