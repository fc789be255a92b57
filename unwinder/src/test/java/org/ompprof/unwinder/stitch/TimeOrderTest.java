package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The merge against a sort: seeded streams (none to seventy, some empty, times with many ties within and across
 * streams), merged, equal to every sample sorted by time, then stream, then place in its stream.
 */
class TimeOrderTest {
    private record Sample(long time, int stream, int index) {}

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void mergesAsASortByTimeThenStream(long seed) {
        Random r = new Random(seed);
        int streams = seed == 1 ? 0 : r.nextInt(seed % 2 == 0 ? 9 : 70);
        List<Iterator<Sample>> in = new ArrayList<>();
        List<Sample> all = new ArrayList<>();
        for (int k = 0; k < streams; k++) {
            List<Sample> one = new ArrayList<>();
            long t = r.nextInt(50);
            for (int i = 0, n = r.nextInt(4) == 0 ? 0 : r.nextInt(300); i < n; i++) {
                t += r.nextInt(3) == 0 ? 0 : r.nextInt(20);
                one.add(new Sample(t, k, i));
            }
            all.addAll(one);
            in.add(one.iterator());
        }
        all.sort(Comparator.comparingLong(Sample::time)
                .thenComparingInt(Sample::stream)
                .thenComparingInt(Sample::index));
        TimeOrder<Sample> merged = new TimeOrder<>(in, Sample::time);
        List<Sample> out = new ArrayList<>();
        merged.forEachRemaining(out::add);
        assertEquals(all, out, "seed " + seed + ", " + streams + " streams");
        assertFalse(merged.hasNext());
        assertThrows(NoSuchElementException.class, merged::next);
    }
}
