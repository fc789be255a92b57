package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Decimals writes what Locale.ROOT's Formatter writes. */
class DecimalsTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void groupedAsPercentCommaD(long seed) {
        Random rnd = new Random(seed);
        long[] edges = {0, 7, -7, 999, 1000, -1000, 999_999, 1_000_000, Long.MAX_VALUE, Long.MIN_VALUE};
        for (long n : edges) assertEquals(String.format(Locale.ROOT, "%,d", n), Decimals.grouped(n), "n=" + n);
        for (int i = 0; i < 20_000; i++) {
            long n = rnd.nextLong() >> rnd.nextInt(64);
            assertEquals(String.format(Locale.ROOT, "%,d", n), Decimals.grouped(n), "n=" + n);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void fixedAsPercentDotNF(long seed) {
        Random rnd = new Random(seed);
        double[] edges = {
            0,
            -0.0,
            0.04,
            -0.04,
            0.05,
            0.25,
            0.35,
            0.95,
            9.95,
            99.95,
            931.45,
            1e15,
            -3e17,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE
        };
        for (int decimals = 0; decimals <= 3; decimals++) {
            String f = "%." + decimals + "f";
            for (double x : edges)
                assertEquals(String.format(Locale.ROOT, f, x), Decimals.fixed(x, decimals), f + " " + x);
            for (int i = 0; i < 20_000; i++) {
                double x = (rnd.nextDouble() - 0.2) * Math.pow(10, rnd.nextInt(-3, 14));
                assertEquals(String.format(Locale.ROOT, f, x), Decimals.fixed(x, decimals), f + " " + x);
            }
        }
    }

    @Test
    void decimalsOutsideZeroToSixAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Decimals.fixed(1, -1));
        assertThrows(IllegalArgumentException.class, () -> Decimals.fixed(1, 7));
    }
}
