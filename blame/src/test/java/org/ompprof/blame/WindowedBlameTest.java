package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.eclipse.collections.api.set.primitive.IntSet;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Blame charged window by window equals blame over the whole run whenever no look-up reaches
 * further than a window: seeded random runs of twenty seconds (six threads, every wait class,
 * regions, dense mutex holds of at most ten milliseconds, samples at most a few milliseconds
 * apart) with windows from 50 ms to longer than the run.
 */
class WindowedBlameTest {
    private static final long MS = 1_000_000;
    private static final IntSet INITIAL = IntSets.immutable.of(1);

    private record Row(int thread, long time, long weight, WaitClass c, long waitId, long region, int node) {}

    private static List<Row> longRun(Random r, long spanNs) {
        List<Row> rows = new ArrayList<>();
        for (int t = 1; t <= 6; t++) {
            for (long time = r.nextInt(1000); time < spanNs; time += r.nextInt(3) == 0 ? 0 : r.nextInt(2 * (int) MS)) {
                WaitClass c = WaitClass.values()[r.nextInt(WaitClass.values().length)];
                rows.add(new Row(
                        t,
                        time,
                        r.nextInt(5) == 0 ? r.nextInt(3 * (int) MS) : MS,
                        c,
                        c == WaitClass.MUTEX ? r.nextInt(4) : 0,
                        r.nextInt(4),
                        r.nextInt(50)));
            }
        }
        rows.sort(Comparator.comparingLong(Row::time)); // all threads in time order, as the stitcher gives them
        return rows;
    }

    private static MutexHolds denseHolds(Random r, long spanNs) {
        MutexHolds.Builder b = new MutexHolds.Builder();
        for (long id = 0; id < 3; id++) {
            for (long t = 0; t < spanNs; ) {
                int thread = 1 + r.nextInt(6);
                b.acquire(thread, id, t, 1 + r.nextInt(7));
                t += r.nextInt(5 * (int) MS);
                b.acquired(thread, id, t);
                t += 1 + r.nextInt(5 * (int) MS);
                b.released(thread, id, t);
            }
        }
        return b.build();
    }

    private static Charges whole(List<Row> rows, MutexHolds holds) {
        SampleTable.Builder b = new SampleTable.Builder();
        for (Row x : rows) b.add(x.thread(), x.time(), x.weight(), x.c(), x.waitId(), x.region(), x.node());
        return BlameCalculator.compute(b.build(), holds, INITIAL);
    }

    private static Charges windowed(List<Row> rows, MutexHolds holds, long windowNs) {
        WindowedBlame w = new WindowedBlame(holds, INITIAL, windowNs);
        for (Row x : rows) w.add(x.thread(), x.time(), x.weight(), x.c(), x.waitId(), x.region(), x.node());
        return w.finish();
    }

    @ParameterizedTest
    @CsvSource({"1, 50", "2, 50", "3, 200", "4, 200", "5, 1000", "6, 1000", "7, 7000", "8, 30000"})
    void equalsTheWholeRunWhenLookUpsStayWithinAWindow(long seed, long windowMs) {
        Random r = new Random(seed);
        long span = 20_000 * MS;
        List<Row> rows = longRun(r, span);
        MutexHolds holds = denseHolds(r, span);
        Charges expected = whole(rows, holds);
        Charges actual = windowed(rows, holds, windowMs * MS);
        assertEquals(expected.toString(), actual.toString());
        assertEquals(table(expected), table(actual));
        assertEquals(expected.mutexes(), actual.mutexes());
        for (BlameKind k : BlameKind.values())
            assertEquals(expected.outsideHoldNs(k), actual.outsideHoldNs(k), k.name());
    }

    @Test
    void samplesOfAnAlreadyChargedWindowAreRefused() {
        WindowedBlame w = new WindowedBlame(new MutexHolds.Builder().build(), INITIAL, 10 * MS);
        w.add(1, 0, MS, WaitClass.WORK, 0, 1, 0);
        w.add(1, 35 * MS, MS, WaitClass.WORK, 0, 1, 0); // charges the first window
        assertThrows(IllegalArgumentException.class, () -> w.add(2, 1 * MS, MS, WaitClass.BARRIER, 0, 1, 0));
        w.add(2, 25 * MS, MS, WaitClass.BARRIER, 0, 1, 0); // the window before the newest is still open
        assertEquals(MS, w.finish().waitedNs(BlameKind.BARRIER));
    }

    @Test
    void anEmptyRunChargesNothing() {
        Charges c = new WindowedBlame(new MutexHolds.Builder().build(), INITIAL, MS).finish();
        assertEquals(0, c.size());
    }

    private static List<String> table(Charges c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++)
            out.add(c.node(i) + "/" + c.thread(i) + "/" + c.kind(i) + "=" + c.valueNs(i));
        return out;
    }
}
