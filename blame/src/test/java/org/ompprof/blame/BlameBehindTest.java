package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.blame.SeededRuns.Row;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Blame behind the building thread charges what blame in its calls charges: seeded random runs (six threads, every
 * wait class, dense mutex holds, release sites handed out as stand-ins), many more batches than may be in flight; and
 * a failure on blame's thread reaches the building one as it would have there.
 */
class BlameBehindTest {
    private static final long MS = SeededRuns.MS;
    /** Where the stand-ins count from: above any node the samples name. */
    private static final int STAND_IN = 1 << 30;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void chargesWhatBlameInTheCallersCallsCharges(long seed) {
        long span = 8_000 * MS;
        List<Row> rows = SeededRuns.samples(new Random(seed), span, (int) MS);
        assertTrue(rows.size() > 20 * 1024, "more batches than may be in flight: " + rows.size());
        Charges inline = charges(rows, SeededRuns.denseHolds(new Random(seed + 100), span), null);
        assertTrue(
                SeededRuns.table(inline).stream().anyMatch(c -> Integer.parseInt(c.split("/")[0]) >= 1000),
                "waiting charged to release sites");
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Charges behind = charges(rows, SeededRuns.denseHolds(new Random(seed + 100), span), thread);
            assertEquals(SeededRuns.table(inline), SeededRuns.table(behind));
            assertEquals(inline.mutexes(), behind.mutexes());
            assertEquals(inline.toString(), behind.toString());
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void aFailureOnBlamesThreadIsRethrownAtTheEnd() {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            List<String> messages = new ArrayList<>();
            for (ExecutorService on : new ExecutorService[] {null, thread}) {
                BlameBehind b =
                        new BlameBehind(blame(new MutexHolds.Builder().build(), ReleaseSites.NONE, 10 * MS), on);
                b.add(1, 0, MS, WaitClass.WORK, 0, 1, 0);
                b.add(1, 35 * MS, MS, WaitClass.WORK, 0, 1, 0); // charges the first window
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
                    b.add(2, MS, MS, WaitClass.BARRIER, 0, 1, 0); // too late for its window
                    for (int i = 0; i < 3000; i++) b.add(2, 40 * MS + i, MS, WaitClass.BARRIER, 0, 1, 0);
                    b.finish();
                });
                messages.add(e.getMessage());
            }
            assertEquals(messages.get(0), messages.get(1));
        } finally {
            thread.shutdownNow();
        }
    }

    private static Charges charges(List<Row> rows, MutexHolds holds, ExecutorService thread) {
        BlameBehind b = new BlameBehind(blame(holds, new StandIns(), 200 * MS), thread);
        for (Row x : rows) b.add(x.thread(), x.time(), x.weight(), x.c(), x.waitId(), x.region(), x.node());
        b.end();
        return b.finish();
    }

    private static WindowedBlame blame(MutexHolds holds, ReleaseSites sites, long windowNs) {
        return new WindowedBlame(holds, sites, IntSets.immutable.of(1), windowNs);
    }

    /** A release site per thread and 10 ms of the run, handed out as stand-ins, three of them to a node. */
    private static final class StandIns implements ReleaseSites {
        @Override
        public int node(int thread, long releaseNs) {
            return thread == 4 ? -1 : STAND_IN + (int) (releaseNs / (10 * MS)) * 8 + thread;
        }

        @Override
        public int resolve(int node) {
            return node < STAND_IN ? node : 1000 + (node - STAND_IN) / 3;
        }
    }
}
