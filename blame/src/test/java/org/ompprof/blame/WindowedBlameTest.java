package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.eclipse.collections.api.set.primitive.IntSet;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ompprof.blame.SeededRuns.Row;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Blame charged window by window equals blame over the whole run whenever no look-up reaches
 * further than a window: seeded random runs of twenty seconds (six threads, every wait class,
 * regions, dense mutex holds of at most ten milliseconds, samples at most a few milliseconds
 * apart) with windows from 50 ms to longer than the run.
 */
class WindowedBlameTest {
    private static final long MS = SeededRuns.MS;
    private static final IntSet INITIAL = IntSets.immutable.of(1);

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
        List<Row> rows = SeededRuns.samples(r, span, 2 * (int) MS);
        MutexHolds holds = SeededRuns.denseHolds(r, span);
        Charges expected = whole(rows, holds);
        Charges actual = windowed(rows, holds, windowMs * MS);
        assertEquals(expected.toString(), actual.toString());
        assertEquals(SeededRuns.table(expected), SeededRuns.table(actual));
        assertEquals(expected.mutexes(), actual.mutexes());
        for (BlameKind k : BlameKind.values()) {
            assertEquals(expected.outsideHoldNs(k), actual.outsideHoldNs(k), k.name());
            assertEquals(expected.handedOverNs(k), actual.handedOverNs(k), k.name());
        }
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
}
