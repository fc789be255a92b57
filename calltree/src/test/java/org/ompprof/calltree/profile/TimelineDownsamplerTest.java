package org.ompprof.calltree.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random timelines (jittered periods, runs of one context, bursts of equal times, a few
 * contexts and states): the downsampled timeline keeps the total weight, has one entry per
 * non-empty bin at its first sample's time, in the bin's heaviest (context, state); twice is once;
 * a period below every gap changes nothing; streaming equals the whole-timeline call.
 */
class TimelineDownsamplerTest {
    private static final long MS = 1_000_000;

    private static Timeline random(Random r) {
        Timeline.Builder b = new Timeline.Builder(3);
        long t = r.nextInt(5_000) * MS;
        int node = 1 + r.nextInt(10), state = 1;
        for (int i = 0, n = 1 + r.nextInt(5_000); i < n; i++) {
            if (r.nextInt(4) == 0) node = 1 + r.nextInt(10);
            if (r.nextInt(6) == 0) state = r.nextInt(3);
            t += r.nextInt(10) == 0 ? 0 : MS / 2 + r.nextInt((int) MS);
            b.add(t, node, state, r.nextInt(8) == 0 ? r.nextInt(3 * (int) MS) : MS);
        }
        return b.build();
    }

    private static long total(Timeline t) {
        long sum = 0;
        for (int i = 0; i < t.size(); i++) sum += t.weightNs(i);
        return sum;
    }

    private static List<long[]> entries(Timeline t) {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) out.add(new long[] {t.timeNs(i), t.node(i), t.state(i), t.weightNs(i)});
        return out;
    }

    private static void assertSame(Timeline a, Timeline b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++)
            assertEquals(
                    List.of(a.timeNs(i), (long) a.node(i), (long) a.state(i), a.weightNs(i)),
                    List.of(b.timeNs(i), (long) b.node(i), (long) b.state(i), b.weightNs(i)),
                    "entry " + i);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void eachBinBecomesItsHeaviestPairWithTheBinsWeight(long seed) {
        Random r = new Random(seed);
        Timeline t = random(r);
        long period = (1 + r.nextInt(50)) * MS;
        Timeline d = TimelineDownsampler.downsample(t, period);
        assertEquals(t.thread(), d.thread());
        assertEquals(total(t), total(d), "total weight");
        Map<Long, List<Integer>> byBin = new HashMap<>();
        for (int i = 0; i < t.size(); i++)
            byBin.computeIfAbsent(Math.floorDiv(t.timeNs(i), period), k -> new ArrayList<>())
                    .add(i);
        assertEquals(byBin.size(), d.size(), "one entry per non-empty bin");
        for (int e = 0; e < d.size(); e++) {
            long bin = Math.floorDiv(d.timeNs(e), period);
            if (e > 0) assertTrue(bin > Math.floorDiv(d.timeNs(e - 1), period), "bins strictly increase");
            List<Integer> in = byBin.get(bin);
            assertEquals(t.timeNs(in.getFirst()), d.timeNs(e), "at the bin's first sample");
            Map<List<Integer>, Long> weight = new HashMap<>();
            long sum = 0;
            for (int i : in) {
                weight.merge(List.of(t.node(i), t.state(i)), t.weightNs(i), Long::sum);
                sum += t.weightNs(i);
            }
            assertEquals(sum, d.weightNs(e));
            long chosen = weight.getOrDefault(List.of(d.node(e), d.state(e)), -1L);
            assertTrue(chosen >= 0, "the entry's pair occurs in its bin");
            assertEquals(
                    weight.values().stream().mapToLong(Long::longValue).max().orElseThrow(),
                    chosen,
                    "the heaviest pair");
        }
        assertSame(d, TimelineDownsampler.downsample(d, period));
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void streamingEqualsTheWholeTimelineAndAFinePeriodChangesNothing(long seed) {
        Timeline t = random(new Random(seed));
        Timeline.Builder b = new Timeline.Builder(t.thread());
        TimelineDownsampler d = new TimelineDownsampler(7 * MS, b::add);
        for (int i = 0; i < t.size(); i++) d.add(t.timeNs(i), t.node(i), t.state(i), t.weightNs(i));
        d.finish();
        d.finish();
        assertSame(TimelineDownsampler.downsample(t, 7 * MS), b.build());

        Timeline.Builder distinct = new Timeline.Builder(1);
        for (int i = 0; i < t.size(); i++) distinct.add(i * 2 * MS, t.node(i), t.state(i), t.weightNs(i));
        Timeline apart = distinct.build();
        assertSame(apart, TimelineDownsampler.downsample(apart, MS));
    }

    @Test
    void refusesWhatItCannotDo() {
        assertThrows(IllegalArgumentException.class, () -> new TimelineDownsampler(0, (t, n, s, w) -> {}));
        TimelineDownsampler d = new TimelineDownsampler(MS, (t, n, s, w) -> {});
        d.add(5 * MS, 1, 1, MS);
        assertThrows(IllegalArgumentException.class, () -> d.add(3 * MS, 1, 1, MS));
        d.finish();
        assertThrows(IllegalStateException.class, () -> d.add(9 * MS, 1, 1, MS));
    }
}
