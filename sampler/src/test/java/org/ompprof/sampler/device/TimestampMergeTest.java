package org.ompprof.sampler.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TimestampMergeTest {
    record Ev(int stream, int index, long time) {}

    static LongStream seeds() {
        return LongStream.range(1, 101);
    }

    /**
     * Random streams, each shuffled within the window (a record comes at most `window` ns before
     * one already given): the merge gives every record once, in timestamp order, ties by stream
     * and then by each stream's own order, and holds back no more than the window's records.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void mergesRandomInterleavingsInOrder(long seed) {
        Random r = new Random(seed);
        int k = 1 + r.nextInt(8);
        long window = r.nextInt(4) == 0 ? 0 : r.nextLong(1, 5_000);
        List<List<Ev>> streams = new ArrayList<>();
        List<Ev> all = new ArrayList<>();
        for (int s = 0; s < k; s++) {
            int n = r.nextInt(400);
            long t = r.nextLong(0, 10_000);
            List<Ev> sorted = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                t += r.nextInt(4) == 0 ? 0 : r.nextLong(0, 300); // ties happen
                sorted.add(new Ev(s, i, t));
            }
            List<Ev> arrival = withinWindow(sorted, window, r);
            streams.add(arrival);
            all.addAll(arrival);
        }
        List<Ev> expected = new ArrayList<>(all);
        expected.sort(Comparator.comparingLong(Ev::time)
                .thenComparingInt(Ev::stream)
                .thenComparingInt(e -> streams.get(e.stream()).indexOf(e)));
        TimestampMerge<Ev> merge =
                new TimestampMerge<>(streams.stream().map(List::iterator).toList(), Ev::time, window);
        List<Ev> got = new ArrayList<>();
        merge.forEachRemaining(got::add);
        assertEquals(expected, got, "seed " + seed);
        assertEquals(0, merge.late());
        long maxPerWindow = maxRecordsWithin(all, window) + k;
        assertTrue(merge.maxHeld() <= maxPerWindow * k, "held " + merge.maxHeld() + " > " + maxPerWindow * k);
    }

    @Test
    void sortedStreamsHoldOneRecordEach() {
        List<Iterator<Long>> streams = List.of(
                List.of(1L, 4L, 9L).iterator(),
                List.of(2L, 3L, 10L).iterator(),
                List.<Long>of().iterator());
        TimestampMerge<Long> m = new TimestampMerge<>(streams, t -> t, 0);
        List<Long> got = new ArrayList<>();
        m.forEachRemaining(got::add);
        assertEquals(List.of(1L, 2L, 3L, 4L, 9L, 10L), got);
        assertEquals(2, m.maxHeld());
        assertFalse(m.hasNext());
        assertThrows(NoSuchElementException.class, m::next);
    }

    @Test
    void aRecordLaterThanTheWindowIsGivenAndCounted() {
        TimestampMerge<Long> m =
                new TimestampMerge<>(List.of(List.of(100L, 200L, 300L, 50L).iterator()), t -> t, 10);
        List<Long> got = new ArrayList<>();
        m.forEachRemaining(got::add);
        assertEquals(4, got.size());
        assertEquals(List.of(100L, 200L, 50L, 300L), got);
        assertEquals(1, m.late());
    }

    @Test
    void negativeWindowIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TimestampMerge<Long>(List.of(), t -> t, -1));
    }

    /** An arrival order in which each record is at most `window` earlier than any before it. */
    private static List<Ev> withinWindow(List<Ev> sorted, long window, Random r) {
        record Keyed(Ev ev, double key) {}
        List<Keyed> keyed = new ArrayList<>();
        for (Ev e : sorted) keyed.add(new Keyed(e, e.time() + r.nextDouble() * window));
        keyed.sort(Comparator.comparingDouble(Keyed::key));
        return keyed.stream().map(Keyed::ev).toList();
    }

    private static long maxRecordsWithin(List<Ev> all, long window) {
        long[] t = all.stream().mapToLong(Ev::time).sorted().toArray();
        long best = 0;
        for (int i = 0, j = 0; i < t.length; i++) {
            while (t[i] - t[j] > window) j++;
            best = Math.max(best, i - j + 1);
        }
        return best;
    }
}
