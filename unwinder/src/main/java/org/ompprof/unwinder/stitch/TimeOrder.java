package org.ompprof.unwinder.stitch;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import org.ompprof.sampler.record.SampleRecord;

/**
 * Several threads' samples, each thread's already in time order, as one stream in time order:
 * a k-way merge that holds one pending sample per thread (and whatever each thread's iterator
 * buffers: one decoded chunk of the recording), so that stages which look across threads at
 * the same moment can work on a window instead of the whole run. Ties keep the thread order.
 */
final class TimeOrder implements Iterator<SampleRecord> {
    private record Head(SampleRecord sample, int stream, Iterator<SampleRecord> rest) {}

    private final PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> a.sample.timeNs() != b.sample.timeNs()
            ? Long.compare(a.sample.timeNs(), b.sample.timeNs())
            : Integer.compare(a.stream, b.stream));

    TimeOrder(List<Iterator<SampleRecord>> threads) {
        for (int i = 0; i < threads.size(); i++) advance(i, threads.get(i));
    }

    private void advance(int stream, Iterator<SampleRecord> it) {
        if (it.hasNext()) heads.add(new Head(it.next(), stream, it));
    }

    @Override
    public boolean hasNext() {
        return !heads.isEmpty();
    }

    @Override
    public SampleRecord next() {
        Head h = heads.poll();
        if (h == null) throw new NoSuchElementException();
        advance(h.stream, h.rest);
        return h.sample;
    }
}
