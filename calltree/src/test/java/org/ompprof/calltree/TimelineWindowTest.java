package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineWindow;

/** One sample per pixel: the one in effect at each column (it stands for the time before it), against a scan. */
class TimelineWindowTest {
    @Test
    void paperTimeline() {
        // samples at 0, 10, 20 ms, each standing for the 10 ms before it; then a gap; one at 50 ms
        Timeline t = new Timeline.Builder(1)
                .add(0, 1, 1, 10)
                .add(10, 2, 1, 10)
                .add(20, 3, 1, 10)
                .add(50, 4, 1, 10)
                .build();
        assertArrayEquals(new int[] {0, 1, 2, -1, 3, 3}, TimelineWindow.samplePerPixel(t, 0, 60, 6));
        assertArrayEquals(
                new int[] {-1, -1, 0},
                TimelineWindow.samplePerPixel(t, -30, 0 + 15, 3),
                "before the first sample's time");
        assertArrayEquals(new int[] {3, -1}, TimelineWindow.samplePerPixel(t, 50, 70, 2), "after the last sample");
        // 10 ms samples 12 ms apart (timer jitter): no holes between them
        Timeline jitter = new Timeline.Builder(1)
                .add(0, 1, 1, 10)
                .add(12, 2, 1, 10)
                .add(24, 3, 1, 10)
                .build();
        assertArrayEquals(
                new int[] {0, 1, 1, 1, 2, 2, 2, -1, -1, -1}, TimelineWindow.samplePerPixel(jitter, 0, 40, 10));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void matchesAScan(long seed) {
        Random r = new Random(seed);
        Timeline.Builder b = new Timeline.Builder(1);
        long time = 0;
        for (int i = 0; i < 5000; i++) {
            time += r.nextInt(4) == 0 ? 0 : r.nextInt(3000);
            b.add(time, i, 1, 1 + r.nextInt(2000));
        }
        Timeline t = b.build();
        long from = r.nextInt(1000), to = time + r.nextInt(1000);
        int[] px = TimelineWindow.samplePerPixel(t, from, to, 700);
        for (int p = 0; p < px.length; p++) {
            long at = from + (to - from) * p / px.length;
            int expected = -1;
            for (int i = t.size() - 1; i >= 0; i--) if (t.timeNs(i) >= at) expected = i;
            if (expected >= 0) {
                boolean near = expected > 0 && t.timeNs(expected) - t.timeNs(expected - 1) <= 2 * t.weightNs(expected);
                long start = near ? t.timeNs(expected - 1) : t.timeNs(expected) - Math.max(1, t.weightNs(expected));
                if (at < start) expected = -1;
            }
            assertEquals(expected, px[p], "pixel " + p);
        }
    }
}
