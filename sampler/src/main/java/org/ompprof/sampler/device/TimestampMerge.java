package org.ompprof.sampler.device;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * Merges host and device streams into one sequence ordered by timestamp (a k-way merge).
 *
 * <p>A stream need not be sorted: a record may come up to {@code window} nanoseconds earlier than
 * one its stream already gave (device trace buffers complete out of order, callbacks of one
 * thread interleave with another's). Each stream holds back records in a small reorder buffer
 * until no later record of that stream can precede them; memory is the records of one window per
 * stream, not the streams. A record later than the window allows is still given out, as soon as
 * possible, and counted in {@link #late()}.
 *
 * <p>Ties are given out in stream order, then in the order their stream gave them.
 */
public final class TimestampMerge<T> implements Iterator<T> {
    private final ToLongFunction<? super T> time;
    private final long window;
    private final List<Lane<T>> lanes = new ArrayList<>();
    private final PriorityQueue<Lane<T>> ready;
    private long lastOut = Long.MIN_VALUE;
    private long late;
    private int held;
    private int maxHeld;

    /** @param window the most a record may precede an earlier record of its own stream, in nanoseconds */
    public TimestampMerge(List<? extends Iterator<? extends T>> streams, ToLongFunction<? super T> time, long window) {
        if (window < 0) throw new IllegalArgumentException("window " + window + " is negative");
        this.time = time;
        this.window = window;
        this.ready = new PriorityQueue<>(
                Comparator.<Lane<T>>comparingLong(l -> l.head().time())
                        .thenComparingInt(l -> l.index)
                        .thenComparingLong(l -> l.head().seq()));
        for (Iterator<? extends T> s : streams) {
            Lane<T> lane = new Lane<>(lanes.size(), s);
            lanes.add(lane);
            refill(lane);
        }
    }

    @Override
    public boolean hasNext() {
        return !ready.isEmpty();
    }

    @Override
    public T next() {
        Lane<T> lane = ready.poll();
        if (lane == null) throw new NoSuchElementException();
        Held<T> h = lane.buffer.poll();
        held--;
        if (h.time() < lastOut) late++;
        else lastOut = h.time();
        refill(lane);
        return h.item();
    }

    /** Records given out after a record with a later timestamp: they broke the window. */
    public long late() {
        return late;
    }

    /** The most records held back at once, over all streams. */
    public int maxHeld() {
        return maxHeld;
    }

    /** Reads the lane until its earliest held record is safe to give out, and queues the lane if it has one. */
    private void refill(Lane<T> lane) {
        while (lane.source.hasNext() && !lane.headSafe(window)) {
            T item = lane.source.next();
            long t = time.applyAsLong(item);
            lane.buffer.add(new Held<>(item, t, lane.nextSeq++));
            lane.maxSeen = Math.max(lane.maxSeen, t);
            maxHeld = Math.max(maxHeld, ++held);
        }
        if (!lane.buffer.isEmpty()) ready.add(lane);
    }

    private record Held<T>(T item, long time, long seq) {}

    private static final class Lane<T> {
        final int index;
        final Iterator<? extends T> source;
        final PriorityQueue<Held<T>> buffer = new PriorityQueue<>(
                Comparator.<Held<T>>comparingLong(Held::time).thenComparingLong(Held::seq));
        long maxSeen = Long.MIN_VALUE;
        long nextSeq;

        Lane(int index, Iterator<? extends T> source) {
            this.index = index;
            this.source = source;
        }

        Held<T> head() {
            return buffer.peek();
        }

        /** No record still to come from this stream may be earlier than the held head. */
        boolean headSafe(long window) {
            Held<T> h = buffer.peek();
            return h != null && maxSeen - h.time() >= window;
        }
    }
}
