package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Seeded random timelines (threads in nested regions, every wait class, mutexes with and without
 * known holders, odd weights, equal timestamps): conservation per kind to the nanosecond, no
 * negative value, and the same charges whatever the order the samples come in.
 */
class BlamePropertyTest {
    private record Row(int thread, long time, long weight, WaitClass c, long waitId, long region, int node) {}

    private static List<Row> randomRows(Random r) {
        List<Row> rows = new ArrayList<>();
        int threads = 1 + r.nextInt(6);
        for (int t = 1; t <= threads; t++) {
            long time = r.nextInt(1000);
            for (int i = 0, n = r.nextInt(400); i < n; i++) {
                time += r.nextInt(3) == 0 ? 0 : r.nextInt(2_000_000);
                WaitClass c = WaitClass.values()[r.nextInt(WaitClass.values().length)];
                rows.add(new Row(
                        t,
                        time,
                        r.nextInt(5) == 0 ? r.nextInt(3_000_000) : 1_000_000,
                        c,
                        c == WaitClass.MUTEX ? r.nextInt(4) : 0,
                        r.nextInt(4),
                        r.nextInt(50)));
            }
        }
        return rows;
    }

    private static MutexHolds randomHolds(Random r) {
        MutexHolds.Builder b = new MutexHolds.Builder();
        for (long id = 0; id < 3; id++) {
            long t = 0;
            for (int i = 0; i < 30; i++) {
                int thread = 1 + r.nextInt(6);
                b.acquire(thread, id, t, 1 + r.nextInt(7));
                t += r.nextInt(5_000_000);
                b.acquired(thread, id, t);
                t += r.nextInt(5_000_000);
                b.released(thread, id, t);
            }
        }
        return b.build();
    }

    private static Charges compute(List<Row> rows, MutexHolds holds) {
        SampleTable.Builder b = new SampleTable.Builder();
        for (Row x : rows) b.add(x.thread(), x.time(), x.weight(), x.c(), x.waitId(), x.region(), x.node());
        return BlameCalculator.compute(b.build(), holds, IntSets.immutable.of(1));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void conservedNonNegativeAndOrderFree(long seed) {
        Random r = new Random(seed);
        List<Row> rows = randomRows(r);
        MutexHolds holds = randomHolds(r);
        Charges c = compute(rows, holds);
        for (BlameKind k : BlameKind.values()) assertEquals(c.waitedNs(k), c.chargedNs(k), k + " " + c);
        long waiting = rows.stream()
                .filter(x -> x.c() == WaitClass.IDLE || x.c() == WaitClass.BARRIER || x.c() == WaitClass.MUTEX)
                .mapToLong(Row::weight)
                .sum();
        long charged = 0;
        for (int i = 0; i < c.size(); i++) {
            assertTrue(c.valueNs(i) > 0, "positive");
            charged += c.valueNs(i);
        }
        assertEquals(waiting, charged, "every nanosecond of waiting is charged once");
        List<Row> shuffled = new ArrayList<>(rows);
        Collections.shuffle(shuffled, new Random(seed * 31));
        assertEquals(c.toString(), compute(shuffled, holds).toString());
        assertEquals(table(c), table(compute(shuffled, holds)));
    }

    private static List<String> table(Charges c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++)
            out.add(c.node(i) + "/" + c.thread(i) + "/" + c.kind(i) + "=" + c.valueNs(i));
        return out;
    }
}
