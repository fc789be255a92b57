package org.ompprof.blame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Seeded random runs for blame's tests: six threads' samples of every wait class in regions, all threads in time
 * order as the stitcher gives them, and dense mutex holds of at most ten milliseconds.
 */
final class SeededRuns {
    static final long MS = 1_000_000;

    /** One sample's blame inputs. */
    record Row(int thread, long time, long weight, WaitClass c, long waitId, long region, int node) {}

    private SeededRuns() {}

    /** Six threads' samples over {@code spanNs}, each at most {@code maxGapNs} after the one before, in bursts. */
    static List<Row> samples(Random r, long spanNs, int maxGapNs) {
        List<Row> rows = new ArrayList<>();
        for (int t = 1; t <= 6; t++) {
            for (long time = r.nextInt(1000); time < spanNs; time += r.nextInt(3) == 0 ? 0 : r.nextInt(maxGapNs)) {
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
        rows.sort(Comparator.comparingLong(Row::time));
        return rows;
    }

    /** Three mutexes held back to back over {@code spanNs} by random threads. */
    static MutexHolds denseHolds(Random r, long spanNs) {
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

    /** The charges one by one, in their order: node/thread/kind/latency=value. */
    static List<String> table(Charges c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++)
            out.add(c.node(i) + "/" + c.thread(i) + "/" + c.kind(i) + "/" + c.isRegionLatency(i) + "=" + c.valueNs(i));
        return out;
    }
}
