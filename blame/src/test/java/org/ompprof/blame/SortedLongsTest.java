package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lower bound against a scan, on seeded arrays with runs of equal values, over random ranges, from any hint. */
class SortedLongsTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void matchesAScan(long seed) {
        Random r = new Random(seed);
        long[] a = new long[r.nextInt(200)];
        for (int i = 0; i < a.length; i++) a[i] = r.nextInt(50);
        Arrays.sort(a);
        for (int k = 0; k < 500; k++) {
            int from = a.length == 0 ? 0 : r.nextInt(a.length + 1);
            int to = from + r.nextInt(a.length - from + 1);
            long v = r.nextInt(60) - 5;
            int expected = to;
            for (int i = to - 1; i >= from; i--) if (a[i] >= v) expected = i;
            assertEquals(
                    expected, SortedLongs.firstAtOrAfter(a, from, to, v), "v " + v + " in [" + from + ", " + to + ")");
            int hint = from + r.nextInt(to - from + 1);
            assertEquals(
                    expected,
                    SortedLongs.firstAtOrAfter(a, from, to, hint, v),
                    "v " + v + " in [" + from + ", " + to + ") from " + hint);
        }
    }
}
