package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.blame.Charges;
import org.ompprof.blame.MutexHolds;
import org.ompprof.blame.ReleaseSites;
import org.ompprof.blame.WindowedBlame;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Blame behind the building thread charges what blame in its calls charges: seeded random runs (six threads, every
 * wait class, dense mutex holds, release sites handed out as stand-ins), many more batches than may be in flight; and
 * a failure on blame's thread reaches the building one as it would have there.
 */
class BlameBehindTest {
    private static final long MS = 1_000_000;

    private record Row(int thread, long time, long weight, WaitClass c, long waitId, long region, int node) {}

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void chargesWhatBlameInTheCallersCallsCharges(long seed) {
        long span = 8_000 * MS;
        List<Row> rows = run(new Random(seed), span);
        assertTrue(rows.size() > 20 * 1024, "more batches than may be in flight: " + rows.size());
        Charges inline = charges(rows, holds(new Random(seed + 100), span), null);
        assertTrue(
                table(inline).stream().anyMatch(c -> Integer.parseInt(c.split("/")[0]) >= 1000),
                "waiting charged to release sites");
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Charges behind = charges(rows, holds(new Random(seed + 100), span), thread);
            assertEquals(table(inline), table(behind));
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
            return thread == 4 ? -1 : ReleaseSiteNodes.FIRST_STAND_IN + (int) (releaseNs / (10 * MS)) * 8 + thread;
        }

        @Override
        public int resolve(int node) {
            return node < ReleaseSiteNodes.FIRST_STAND_IN ? node : 1000 + (node - ReleaseSiteNodes.FIRST_STAND_IN) / 3;
        }
    }

    private static List<Row> run(Random r, long spanNs) {
        List<Row> rows = new ArrayList<>();
        for (int t = 1; t <= 6; t++) {
            for (long time = r.nextInt(1000); time < spanNs; time += r.nextInt(3) == 0 ? 0 : r.nextInt((int) MS)) {
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

    private static MutexHolds holds(Random r, long spanNs) {
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

    private static List<String> table(Charges c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++)
            out.add(c.node(i) + "/" + c.thread(i) + "/" + c.kind(i) + "/" + c.isRegionLatency(i) + "=" + c.valueNs(i));
        return out;
    }
}
