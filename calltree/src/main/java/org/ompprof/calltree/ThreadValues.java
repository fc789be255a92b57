package org.ompprof.calltree;

import java.util.Arrays;

/**
 * A node's values broken down by thread: {@code values[i]} belongs to {@code threads[i]};
 * threads ascending, only those with a non-zero value.
 */
public record ThreadValues(int[] threads, long[] values) {
    public ThreadValues {
        if (threads.length != values.length) throw new IllegalArgumentException("threads and values differ in length");
    }

    /** From parallel arrays that may hold zeros, which are dropped. */
    static ThreadValues nonZero(int[] threads, long[] values) {
        int n = 0;
        for (long v : values) if (v != 0) n++;
        int[] t = new int[n];
        long[] v = new long[n];
        for (int i = 0, j = 0; i < values.length; i++) {
            if (values[i] != 0) {
                t[j] = threads[i];
                v[j++] = values[i];
            }
        }
        return new ThreadValues(t, v);
    }

    /** The value of {@code thread}, 0 if it has none. */
    public long of(int thread) {
        int i = Arrays.binarySearch(threads, thread);
        return i < 0 ? 0 : values[i];
    }

    public int size() {
        return threads.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ThreadValues t && Arrays.equals(threads, t.threads) && Arrays.equals(values, t.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(threads) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < threads.length; i++)
            s.append(i > 0 ? ", " : "").append(threads[i]).append('=').append(values[i]);
        return s.append('}').toString();
    }
}
