package org.ompprof.blame.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.eclipse.collections.impl.factory.primitive.IntSets;
import org.ompprof.blame.BlameCalculator;
import org.ompprof.blame.BlameKind;
import org.ompprof.blame.Charges;
import org.ompprof.blame.MutexHolds;
import org.ompprof.blame.SampleTable;
import org.ompprof.sampler.omp.WaitClass;

/**
 * Blame over 10 million samples on one thread (goal: under 5 s): a synthetic run of 16
 * threads at 1 kHz for 625 s, in regions of 100 ms with imbalance, barrier waits, idleness
 * between regions and a contended lock. Prints the CPU time of building the table and of the
 * computation, median and spread over REPEAT runs.
 *
 * <p>usage: BlameBench [SAMPLES=10000000] [REPEAT=5]
 */
public final class BlameBench {
    private static final long MS = 1_000_000;
    private static final int THREADS = 16;

    private BlameBench() {}

    public static void main(String[] args) {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
        int repeat = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        MutexHolds holds = holds(samples / THREADS);
        double[] build = new double[repeat], compute = new double[repeat];
        Charges last = null;
        for (int r = 0; r < repeat; r++) {
            long c0 = cpu.getCurrentThreadCpuTime();
            SampleTable table = table(samples);
            long c1 = cpu.getCurrentThreadCpuTime();
            last = BlameCalculator.compute(table, holds, IntSets.immutable.of(0));
            long c2 = cpu.getCurrentThreadCpuTime();
            build[r] = (c1 - c0) / 1e9;
            compute[r] = (c2 - c1) / 1e9;
        }
        long waited = 0;
        for (BlameKind k : BlameKind.values()) waited += last.waitedNs(k);
        System.out.printf(
                Locale.ROOT,
                "blame over %,d samples (%d threads), one thread, CPU seconds, %d runs:%n",
                samples,
                THREADS,
                repeat);
        System.out.printf(Locale.ROOT, "  building the sample table: %s%n", stats(build));
        System.out.printf(Locale.ROOT, "  computing the blame:       %s%n", stats(compute));
        System.out.printf(
                Locale.ROOT,
                "  %,d (node, thread, kind) sums; %.1f s of waiting charged, %.1f%% unattributed%n",
                last.size(),
                waited / 1e9,
                100.0
                        * Arrays.stream(BlameKind.values())
                                .mapToLong(last::unattributedNs)
                                .sum()
                        / Math.max(1, waited));
    }

    /**
     * Per 100 ms region: thread t works 50 + 3t ms then waits at the barrier; 10 ms idle between regions; lock 7 now
     * and then.
     */
    private static SampleTable table(int samples) {
        Random random = new Random(42);
        SampleTable.Builder b = new SampleTable.Builder();
        int perThread = samples / THREADS;
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < perThread; i++) {
                int inCycle = i % 110;
                long region = i / 110 + 1;
                WaitClass c;
                long waitId = 0;
                if (inCycle >= 100) c = t == 0 ? WaitClass.WORK : WaitClass.IDLE;
                else if (inCycle < 50 + 3 * t) c = random.nextInt(50) == 0 ? WaitClass.MUTEX : WaitClass.WORK;
                else c = WaitClass.BARRIER;
                if (c == WaitClass.MUTEX) waitId = 7;
                b.add(
                        t,
                        i * MS + random.nextInt(50_000),
                        MS,
                        c,
                        waitId,
                        inCycle >= 100 ? 0 : region,
                        1 + t * 100 + inCycle % 100);
            }
        }
        return b.build();
    }

    private static MutexHolds holds(int perThread) {
        MutexHolds.Builder b = new MutexHolds.Builder();
        for (long t = 0; t < perThread; t += 5) {
            int thread = (int) (t % THREADS);
            b.acquire(thread, 7, t * MS, 1).acquired(thread, 7, t * MS).released(thread, 7, t * MS + 3 * MS);
        }
        return b.build();
    }

    private static String stats(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        return String.format(Locale.ROOT, "median %.2f s (min %.2f, max %.2f)", median, s[0], s[s.length - 1]);
    }
}
