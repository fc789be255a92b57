package org.ompprof.unwinder.stitch;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * Several threads' samples, each thread's already in time order, as one stream in time order:
 * a k-way merge that holds one pending sample per thread (and whatever each thread's iterator
 * buffers: one decoded chunk of the recording), so that stages which look across threads at
 * the same moment can work on a window instead of the whole run. Ties keep the thread order.
 */
final class TimeOrder<T> implements Iterator<T> {
    private record Head<T>(T sample, long timeNs, int stream, Iterator<T> rest) {}

    private final PriorityQueue<Head<T>> heads = new PriorityQueue<>(
            (a, b) -> a.timeNs != b.timeNs ? Long.compare(a.timeNs, b.timeNs) : Integer.compare(a.stream, b.stream));
    private final ToLongFunction<T> timeNs;

    /** @param timeNs a sample's time */
    TimeOrder(List<Iterator<T>> threads, ToLongFunction<T> timeNs) {
        this.timeNs = timeNs;
        for (int i = 0; i < threads.size(); i++) advance(i, threads.get(i));
    }

    private void advance(int stream, Iterator<T> it) {
        if (!it.hasNext()) return;
        T s = it.next();
        heads.add(new Head<>(s, timeNs.applyAsLong(s), stream, it));
    }

    @Override
    public boolean hasNext() {
        return !heads.isEmpty();
    }

    @Override
    public T next() {
        Head<T> h = heads.poll();
        if (h == null) throw new NoSuchElementException();
        advance(h.stream, h.rest);
        return h.sample;
    }
}
