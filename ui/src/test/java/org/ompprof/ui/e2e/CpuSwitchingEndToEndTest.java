package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * cpu mode on threads that switch very often (issue 14): each of 4 threads of switching.c sleeps briefly twice a
 * round, tens of thousands of context switches per CPU-second, and the kernel would schedule each thread's perf
 * cpu-clock event out and in at every one of them. The agent moves such a thread to a CPU-clock timer once it has
 * seen it switch more than 2,000 times per CPU-second in three windows of 5 ms of its CPU time in a row, or more
 * than 20,000 in one.
 *
 * <p>The program is recorded twice: with the move turned off (OMPPROF_CPU_SWITCHES=0: every sample from the perf
 * events) and at the defaults. Where the kernel allows perf events, every thread moved (info says so; in each
 * thread's samples the perf event's come first, the timer's after, and stand for most of its CPU time), and the moved
 * threads' samples stand for their rounds' CPU time within 10%.
 *
 * <p>In both recordings work_b's share of the time of work_a and work_b matches the share the program measured in
 * that run with its own CPU clock (about 3/4, but from 0.75 to 0.81 from run to run: the two recordings are not
 * compared with each other, which failed CI twice, 0.812 against 0.671 and 0.762 against 0.652). The tolerance is 4.5
 * standard deviations of a share of as many samples as the profile holds in the two functions, counted as Kish's
 * effective sample size (the timers fire only at the kernel's 250 Hz tick, and their samples stand for unequal CPU
 * times), plus 3 points: the samples are not independent draws. About 1,900 samples on the perf events, all
 * effective: 7 points; 300-450 on the timers, 150-200 effective: 16-19 points. Seen in 21 recordings on the perf
 * events and 27 on the timers, about half under load: -3.9 to +2.7 points from the program's share, and -9.8 to +7.9.
 * The perf events' samples stand for about 10% less CPU time than the threads used (a perf event counts only while
 * it is scheduled in): printed, not asserted. Where the kernel refuses perf events, every thread is on timers from
 * the start and nothing moves.
 */
class CpuSwitchingEndToEndTest {
    private static final Pattern PRINTED =
            Pattern.compile("tid (\\d+) cpu_ns (\\d+) start_ns (\\d+) end_ns (\\d+) switches_per_cpu_s (\\d+)"
                    + " work_a_ns (\\d+) work_b_ns (\\d+)");
    private static final int THREADS = 4;
    private static final long LIMIT = 2000;

    @TempDir
    Path work;

    private record Rounds(
            int tid, long cpuNs, long startNs, long endNs, long switchesPerCpuSecond, long workANs, long workBNs) {}

    private record Run(Path profile, List<Rounds> threads, List<SampleRecord> samples, String info) {
        /** work_b's share of the CPU time in work_a and work_b, as the program measured it. */
        double measuredShare() {
            double a = threads.stream().mapToLong(Rounds::workANs).sum(),
                    b = threads.stream().mapToLong(Rounds::workBNs).sum();
            return b / (a + b);
        }

        /**
         * Kish's effective sample size of the rounds' samples as a share of their number: samples that stand for
         * unequal times are worth fewer equal ones (the timers' stand for 1 to 20 ms under load).
         */
        double effectiveShare() {
            List<SampleRecord> in =
                    threads.stream().flatMap(t -> inRounds(t).stream()).toList();
            double sum = in.stream().mapToDouble(SampleRecord::weightNs).sum(),
                    squares =
                            in.stream()
                                    .mapToDouble(s -> (double) s.weightNs() * s.weightNs())
                                    .sum();
            return sum * sum / squares / in.size();
        }

        List<SampleRecord> inRounds(Rounds t) {
            return samples.stream()
                    .filter(s -> s.osTid() == t.tid() && s.timeNs() >= t.startNs() && s.timeNs() <= t.endNs())
                    .toList();
        }
    }

    private Run record(String name, Map<String, String> env) throws Exception {
        Path out = work.resolve(name + ".ompprof");
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("OMP_NUM_THREADS", Integer.toString(THREADS));
        Ompprof.Result r = Ompprof.run(
                work,
                all,
                "record",
                "--keep-raw",
                "--mode",
                "cpu",
                "--rate",
                "1000",
                "-o",
                out.toString(),
                "--",
                CPrograms.clang("switching").toString(),
                "15000");
        assertEquals(0, r.status(), r.err());
        List<Rounds> threads = new ArrayList<>();
        Matcher m = PRINTED.matcher(r.out());
        while (m.find())
            threads.add(new Rounds(
                    Integer.parseInt(m.group(1)),
                    Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)),
                    Long.parseLong(m.group(5)),
                    Long.parseLong(m.group(6)),
                    Long.parseLong(m.group(7))));
        assertEquals(THREADS, threads.size(), r.out());
        for (Rounds t : threads)
            assertTrue(
                    t.switchesPerCpuSecond() > 5 * LIMIT, () -> "the premise: every thread switches often\n" + r.out());
        Ompprof.Result info = Ompprof.run(work.resolve("info-" + name), Map.of(), "info", out.toString());
        assertEquals(0, info.status(), info.err());
        return new Run(out, threads, Recorded.read(out).samples(), info.out());
    }

    private static boolean perfAllowedHere() throws Exception {
        return Integer.parseInt(Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid"))
                        .strip())
                <= 2;
    }

    private static boolean perf(SampleRecord s) {
        return (s.flags() & Wire.SAMPLE_PERF) != 0;
    }

    @Test
    void threadsThatSwitchOftenMoveToTimersAndTheProfileStaysRight() throws Exception {
        Run kept = record("kept", Map.of("OMPPROF_CPU_SWITCHES", "0"));
        Run moved = record("moved", Map.of());
        assertFalse(kept.info().contains("moved to CPU-clock timers"), kept.info());
        if (perfAllowedHere()) {
            for (Rounds t : kept.threads())
                assertTrue(kept.inRounds(t).stream().allMatch(CpuSwitchingEndToEndTest::perf), "thread " + t.tid());
            assertTrue(
                    moved.info().contains(THREADS + " threads moved to CPU-clock timers, switching over 2,000 times"),
                    moved.info());
            for (Rounds t : moved.threads()) movedOnce(moved, t);
        } else {
            assertTrue(moved.samples().stream().noneMatch(CpuSwitchingEndToEndTest::perf));
            assertFalse(moved.info().contains("moved to CPU-clock timers"), moved.info());
        }
        for (Rounds t : moved.threads())
            assertEquals(
                    t.cpuNs() / 1e9,
                    weighedSeconds(moved, t),
                    0.1 * t.cpuNs() / 1e9,
                    "CPU seconds the samples of thread " + t.tid() + " stand for");
        // Not asserted, shown: a perf event counts only while it is scheduled in, and misses part of each switch
        for (Rounds t : kept.threads())
            System.out.printf(
                    Locale.ROOT,
                    "switching, perf events kept: thread %d's samples stand for %.3f of its %.3f CPU seconds%n",
                    t.tid(),
                    weighedSeconds(kept, t),
                    t.cpuNs() / 1e9);
        shareMatchesTheProgram(kept);
        shareMatchesTheProgram(moved);
    }

    /** The thread's perf samples all come before its timer's, which stand for most of its CPU time. */
    private static void movedOnce(Run run, Rounds t) {
        List<SampleRecord> in = run.inRounds(t);
        long lastPerf = in.stream()
                .filter(CpuSwitchingEndToEndTest::perf)
                .mapToLong(SampleRecord::timeNs)
                .max()
                .orElse(Long.MIN_VALUE);
        long firstTimer = in.stream()
                .filter(s -> !perf(s))
                .mapToLong(SampleRecord::timeNs)
                .min()
                .orElse(Long.MAX_VALUE);
        assertTrue(lastPerf < firstTimer, () -> "thread " + t.tid() + ": perf samples after the move");
        long
                timerNs =
                        in.stream()
                                .filter(s -> !perf(s))
                                .mapToLong(SampleRecord::weightNs)
                                .sum(),
                allNs = in.stream().mapToLong(SampleRecord::weightNs).sum();
        assertTrue(
                timerNs >= 0.8 * allNs,
                () -> "thread " + t.tid() + ": the timer's samples stand for " + timerNs + " of " + allNs + " ns");
    }

    private static double weighedSeconds(Run run, Rounds t) {
        return run.inRounds(t).stream().mapToLong(SampleRecord::weightNs).sum() / 1e9;
    }

    /**
     * work_b's share of work_a's and its time in the profile is the share the program measured, within 4.5 standard
     * deviations of a share of the profile's samples in the two functions and 3 points.
     */
    private static void shareMatchesTheProgram(Run run) throws Exception {
        long a = BlameTotals.total(run.profile(), "time", "work_a"),
                b = BlameTotals.total(run.profile(), "time", "work_b"),
                samples =
                        BlameTotals.total(run.profile(), "samples", "work_a")
                                + BlameTotals.total(run.profile(), "samples", "work_b");
        double share = b / (double) (a + b), measured = run.measuredShare();
        double effective = samples * run.effectiveShare();
        double tolerance = 4.5 * Math.sqrt(measured * (1 - measured) / effective) + 0.03;
        System.out.printf(
                Locale.ROOT,
                "switching %s: work_a %.1f ms, work_b %.1f ms in %d samples (%.0f effective); work_b's share %.3f,"
                        + " measured %.3f (tolerance %.3f)%n",
                run.profile().getFileName(),
                a / 1e6,
                b / 1e6,
                samples,
                effective,
                share,
                measured,
                tolerance);
        assertTrue(samples >= 200, () -> "the premise: a few hundred samples in work_a and work_b, not " + samples);
        assertEquals(
                measured, share, tolerance, "work_b's share in " + run.profile().getFileName());
    }
}
