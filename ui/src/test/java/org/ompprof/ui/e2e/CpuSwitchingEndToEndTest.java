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
 * seen it switch more than 2,000 times per CPU-second over 20 ms of its CPU time.
 *
 * <p>What it checks, where the kernel allows perf events: every thread moved (info says so, and in each thread's
 * samples the perf event's come first, the timer's after, and most are the timer's), and the profile is still
 * right: the samples in a thread's rounds stand for the rounds' CPU time within 10%, and work_b, which runs three
 * times the units of work_a on the same code, holds 75% of the two's time within 7 points (about three standard
 * deviations of a share over the 400-odd samples the kernel's 250 Hz tick delivers on a 2-core machine). With the
 * limit turned off (OMPPROF_CPU_SWITCHES=0) the threads keep their perf events and the share is right too; their
 * samples' CPU time is printed, not asserted: a perf event counts only while it is scheduled in, and at these rates
 * it missed about 10% of the threads' CPU time. Where the kernel refuses perf events, every thread is on timers from
 * the start and nothing moves.
 */
class CpuSwitchingEndToEndTest {
    private static final Pattern PRINTED =
            Pattern.compile("tid (\\d+) cpu_ns (\\d+) start_ns (\\d+) end_ns (\\d+) switches_per_cpu_s (\\d+)");
    private static final int THREADS = 4;
    private static final long LIMIT = 2000;

    @TempDir
    Path work;

    private record Rounds(int tid, long cpuNs, long startNs, long endNs, long switchesPerCpuSecond) {}

    private record Run(Path profile, List<Rounds> threads, List<SampleRecord> samples, String info) {
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
                "10000");
        assertEquals(0, r.status(), r.err());
        List<Rounds> threads = new ArrayList<>();
        Matcher m = PRINTED.matcher(r.out());
        while (m.find())
            threads.add(new Rounds(
                    Integer.parseInt(m.group(1)),
                    Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)),
                    Long.parseLong(m.group(5))));
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
        Run run = record("moved", Map.of());
        if (perfAllowedHere()) {
            assertTrue(
                    run.info().contains(THREADS + " threads moved to CPU-clock timers, switching over 2,000 times"),
                    run.info());
            for (Rounds t : run.threads()) {
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
                        () -> "thread " + t.tid() + ": the timer's samples stand for " + timerNs + " of " + allNs
                                + " ns");
            }
        } else {
            assertTrue(run.samples().stream().noneMatch(CpuSwitchingEndToEndTest::perf));
            assertFalse(run.info().contains("moved to CPU-clock timers"), run.info());
        }
        for (Rounds t : run.threads())
            assertEquals(
                    t.cpuNs() / 1e9,
                    weighedSeconds(run, t),
                    0.1 * t.cpuNs() / 1e9,
                    "CPU seconds the samples of thread " + t.tid() + " stand for");
        shareIsRight(run);
    }

    @Test
    void withTheLimitOffThreadsKeepTheirPerfEvents() throws Exception {
        Run run = record("kept", Map.of("OMPPROF_CPU_SWITCHES", "0"));
        assertFalse(run.info().contains("moved to CPU-clock timers"), run.info());
        if (perfAllowedHere())
            for (Rounds t : run.threads())
                assertTrue(run.inRounds(t).stream().allMatch(CpuSwitchingEndToEndTest::perf), "thread " + t.tid());
        // Not asserted, shown: a perf event counts only while it is scheduled in, and misses part of each switch
        for (Rounds t : run.threads())
            System.out.printf(
                    Locale.ROOT,
                    "switching, perf events kept: thread %d's samples stand for %.3f of its %.3f CPU seconds%n",
                    t.tid(),
                    weighedSeconds(run, t),
                    t.cpuNs() / 1e9);
        shareIsRight(run);
    }

    private static double weighedSeconds(Run run, Rounds t) {
        return run.inRounds(t).stream().mapToLong(SampleRecord::weightNs).sum() / 1e9;
    }

    /** work_b holds three quarters of work_a's and its time. */
    private void shareIsRight(Run run) throws Exception {
        double a = BlameTotals.totalMs(work, run.profile(), "time", "work_a"),
                b = BlameTotals.totalMs(work, run.profile(), "time", "work_b");
        System.out.printf(
                Locale.ROOT,
                "switching %s: work_a %.1f ms, work_b %.1f ms, work_b's share %.3f%n",
                run.profile().getFileName(),
                a,
                b,
                b / (a + b));
        assertEquals(0.75, b / (a + b), 0.07, "work_b's share of the two");
    }
}
