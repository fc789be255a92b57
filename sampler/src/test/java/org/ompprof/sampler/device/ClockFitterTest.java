package org.ompprof.sampler.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ClockFitterTest {
    private static final long TEN_S = 10_000_000_000L;

    static LongStream seeds() {
        return LongStream.range(1, 41);
    }

    /**
     * A device clock with a random offset and drift read at random moments over 10 s, every
     * reading off by up to 2 us of jitter and one in ten delayed by up to 5 ms (a preempted
     * reader): the fit maps the whole span within 1 us of the truth.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void alignsWithinOneMicrosecondOverTenSeconds(long seed) {
        Random r = new Random(seed);
        long offset = r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
        double drift = (r.nextDouble() * 2 - 1) * 200e-6; // +-200 ppm
        long deviceStart = r.nextLong(0, 1L << 50);
        List<ClockPair> pairs = new ArrayList<>();
        int n = 50 + r.nextInt(500);
        for (int i = 0; i < n; i++) {
            long d = deviceStart + r.nextLong(0, TEN_S);
            long h = truth(d, deviceStart, offset, drift) + r.nextLong(-2_000, 2_001);
            if (r.nextInt(10) == 0) h += r.nextLong(10_000, 5_000_000);
            pairs.add(new ClockPair(h, d));
        }
        ClockFit fit = ClockFitter.fit(pairs);
        for (long d = deviceStart; d <= deviceStart + TEN_S; d += TEN_S / 100) {
            long err = fit.toHost(d) - truth(d, deviceStart, offset, drift);
            assertTrue(
                    Math.abs(err) < 1_000,
                    "seed " + seed + ": " + err + " ns off at +" + (d - deviceStart) + " ns; " + fit);
        }
        assertTrue(
                Math.abs(fit.driftPpm() - drift * 1e6) < 0.2, "drift " + fit.driftPpm() + " ppm, truth " + drift * 1e6);
        assertTrue(fit.inliers() >= n * 8 / 10 && fit.inliers() < n, "inliers " + fit.inliers() + " of " + n);
    }

    /** Outliers on both sides (early and late readings) are as harmless as late ones. */
    @ParameterizedTest
    @MethodSource("seeds")
    void ignoresOutliersOnBothSides(long seed) {
        Random r = new Random(seed);
        long offset = r.nextLong(-1L << 40, 1L << 40);
        double drift = (r.nextDouble() * 2 - 1) * 50e-6;
        List<ClockPair> pairs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long d = i * (TEN_S / 300);
            long h = truth(d, 0, offset, drift) + r.nextLong(-500, 501);
            if (i % 5 == 0) h += (r.nextBoolean() ? 1 : -1) * r.nextLong(100_000, 50_000_000);
            pairs.add(new ClockPair(h, d));
        }
        Collections.shuffle(pairs, r);
        ClockFit fit = ClockFitter.fit(pairs);
        for (long d = 0; d <= TEN_S; d += TEN_S / 50) {
            assertTrue(Math.abs(fit.toHost(d) - truth(d, 0, offset, drift)) < 1_000, "seed " + seed + " " + fit);
        }
    }

    @Test
    void noPairsIsIdentityAndOnePairIsAnOffset() {
        assertEquals(12345, ClockFitter.fit(List.of()).toHost(12345));
        ClockFit one = ClockFitter.fit(List.of(new ClockPair(1_000_500, 500)));
        assertEquals(1_000_000 + 7_000, one.toHost(7_000));
        assertEquals(1_000_000, one.offsetNs());
    }

    @Test
    void pairsAtOneDeviceTimeGiveTheirMedianOffset() {
        ClockFit fit =
                ClockFitter.fit(List.of(new ClockPair(110, 10), new ClockPair(115, 10), new ClockPair(9_000, 10)));
        assertEquals(115, fit.toHost(10));
    }

    private static long truth(long device, long anchor, long offset, double drift) {
        return device + offset + Math.round(drift * (device - anchor));
    }
}
