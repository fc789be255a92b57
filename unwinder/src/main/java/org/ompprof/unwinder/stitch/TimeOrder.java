package org.ompprof.unwinder.stitch;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.ToLongFunction;

/**
 * Several threads' samples, each thread's already in time order, as one stream in time order:
 * a k-way merge that holds one pending sample per thread (and whatever each thread's iterator
 * buffers: one decoded chunk of the recording), so that stages which look across threads at
 * the same moment can work on a window instead of the whole run. Ties keep the thread order.
 *
 * <p>The pending samples form a binary heap in parallel arrays, by (time, thread): a sample taken
 * is replaced by its thread's next in place and sifted down once, with no object a sample (a
 * build merges millions; a priority queue of heads cost a poll, an offer and a head each).
 */
final class TimeOrder<T> implements Iterator<T> {
    private final ToLongFunction<T> timeNs;
    private final Iterator<T>[] rest;
    /** Heap slots: the pending sample, its time, and its thread's place in the list given. */
    private final Object[] sample;

    private final long[] time;
    private final int[] stream;
    private int size;

    /** @param timeNs a sample's time */
    @SuppressWarnings("unchecked")
    TimeOrder(List<Iterator<T>> threads, ToLongFunction<T> timeNs) {
        this.timeNs = timeNs;
        int n = threads.size();
        rest = threads.toArray(new Iterator[0]);
        sample = new Object[n];
        time = new long[n];
        stream = new int[n];
        for (int i = 0; i < n; i++) {
            if (!rest[i].hasNext()) continue;
            T s = rest[i].next();
            sample[size] = s;
            time[size] = timeNs.applyAsLong(s);
            stream[size] = i;
            siftUp(size++);
        }
    }

    @Override
    public boolean hasNext() {
        return size > 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T next() {
        if (size == 0) throw new NoSuchElementException();
        T out = (T) sample[0];
        Iterator<T> it = rest[stream[0]];
        if (it.hasNext()) {
            T s = it.next();
            sample[0] = s;
            time[0] = timeNs.applyAsLong(s);
        } else {
            move(--size, 0);
            sample[size] = null;
        }
        if (size > 0) siftDown(0);
        return out;
    }

    private boolean before(int a, int b) {
        return time[a] != time[b] ? time[a] < time[b] : stream[a] < stream[b];
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(i, parent)) return;
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int least = i, left = 2 * i + 1, right = left + 1;
            if (left < size && before(left, least)) least = left;
            if (right < size && before(right, least)) least = right;
            if (least == i) return;
            swap(i, least);
            i = least;
        }
    }

    private void swap(int a, int b) {
        Object s = sample[a];
        long t = time[a];
        int k = stream[a];
        move(b, a);
        sample[b] = s;
        time[b] = t;
        stream[b] = k;
    }

    private void move(int from, int to) {
        sample[to] = sample[from];
        time[to] = time[from];
        stream[to] = stream[from];
    }
}
