package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Blame on known-answer programs, recorded for real and read back through export: the paper
 * values of imbalance_loop.c (barrier waiting per thread, barrier blame on the heaviest
 * thread) and critical_body.c (critical waiting, all blamed on the body), within 5%.
 */
class BlameEndToEndTest {
    private static final double UNIT = 0.25;
    private static final int REGIONS = 2;

    @TempDir
    Path work;

    private Path record(Map<String, String> env, Path program, String... args) throws Exception {
        Path profile = work.resolve(program.getFileName() + ".ompprof");
        List<String> cmd =
                new java.util.ArrayList<>(List.of("record", "-o", profile.toString(), "--", program.toString()));
        cmd.addAll(List.of(args));
        Ompprof.Result r = Ompprof.run(work, env, cmd.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return profile;
    }

    private double totalMs(Path profile, String metric, int thread, String frame) throws Exception {
        return BlameTotals.totalMs(work, profile, metric, thread, frame);
    }

    /** Thread t of T waits (T-1-t) units per region; the heaviest is blamed sum_{j<T} j/(T-j) units per region. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void imbalanceIsBlamedOnTheHeaviestThread(int threads) throws Exception {
        // libomp's default waiting (spin, then sleep): a sleeping worker takes milliseconds to wake at the next fork
        // here
        Path profile = record(
                Map.of("OMP_NUM_THREADS", Integer.toString(threads)),
                CPrograms.clang("imbalance_loop"),
                Double.toString(UNIT),
                Integer.toString(REGIONS));
        double unitMs = UNIT * 1000 * REGIONS;
        double paperBlame = 0;
        for (int j = 1; j < threads; j++) paperBlame += (double) j / (threads - j);
        // thread sequence numbers: 1 is the initial thread (omp thread 0), workers follow in creation order
        double totalWait = totalMs(profile, "time.barrier", 0, null);
        assertEquals(
                unitMs * threads * (threads - 1) / 2.0,
                totalWait,
                0.05 * unitMs * threads * (threads - 1) / 2.0,
                "barrier waiting");
        double heaviest = 0;
        for (int t = 1; t <= threads; t++)
            heaviest = Math.max(heaviest, totalMs(profile, "barrier_blame", t, "work_units"));
        assertEquals(
                paperBlame * unitMs,
                heaviest,
                0.05 * paperBlame * unitMs,
                "barrier blame on the heaviest thread's work_units");
        assertTrue(
                totalMs(profile, "barrier_blame", 0, "<unattributed>") <= 0.05 * totalWait,
                "unattributed barrier waiting");
    }

    /**
     * Regions shorter than the sampling period (0.3 ms units, 1 ms samples): the waiter is mostly
     * the only thread sampled in its region instance, and the worker's next sample often shows it
     * idle already; the waiting for the heavier threads still finds their work_units (at least 80%
     * of the paper value), what remains is the barrier's own latency (every thread at the
     * barrier), and at most 5% is unattributed. Twice as many threads as cores too (4).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shortRegionsFindTheirCause(int threads) throws Exception {
        int regions = 2000;
        double unitMs = 0.3;
        Path profile = record(
                Map.of("OMP_NUM_THREADS", Integer.toString(threads)),
                CPrograms.clang("imbalance_loop"),
                Double.toString(unitMs / 1000),
                Integer.toString(regions));
        double waited = totalMs(profile, "time.barrier", 0, null);
        double unattributed = totalMs(profile, "barrier_blame", 0, "<unattributed>");
        double onWork = totalMs(profile, "barrier_blame", 0, "work_units");
        double latency = totalMs(profile, "barrier_blame", 0, "<omp barrier>");
        // per region, thread t waits (T-1-t) units for the heavier ones: T(T-1)/2 units in all
        double paper = regions * unitMs * threads * (threads - 1) / 2.0;
        String seen = String.format(
                java.util.Locale.ROOT,
                "waited %.0f ms (paper %.0f): on work_units %.0f, barrier latency %.0f, " + "unattributed %.0f",
                waited,
                paper,
                onWork,
                latency,
                unattributed);
        assertTrue(unattributed <= 0.05 * waited, seen);
        assertTrue(onWork >= 0.8 * paper, seen);
        assertEquals(
                waited,
                onWork + latency + unattributed,
                0.05 * waited,
                "nothing else is blamed (runtime frames a little): " + seen);
    }

    /**
     * Two locks held in different functions: the waiting for each is blamed on its own holder's function, within 5%.
     */
    @Test
    void eachLocksWaitingIsBlamedOnItsHolder() throws Exception {
        Path profile = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("two_locks"), "5", "0.05");
        Ompprof.Result report = Ompprof.read("report", profile.toString());
        assertTrue(
                report.out().contains("lock `a` at two_locks.c:")
                        && report.out()
                                .matches("(?s).*blamed on spin_for\\(\\) called from hold_a\\(\\) at "
                                        + "two_locks\\.c:\\d+ \\(holder\\).*")
                        && report.out().contains("lock `b` at two_locks.c:")
                        && report.out()
                                .matches("(?s).*blamed on spin_for\\(\\) called from hold_b\\(\\) at "
                                        + "two_locks\\.c:\\d+ \\(holder\\).*"),
                report.out());
        double waitA = totalMs(profile, "time.lock", 0, "take_a"), waitB = totalMs(profile, "time.lock", 0, "take_b");
        assertEquals(250, waitA, 0.15 * 250, "waiting for lock A: 5 rounds of 50 ms");
        assertEquals(250, waitB, 0.15 * 250, "waiting for lock B");
        assertEquals(
                waitA, totalMs(profile, "mutex_blame.lock", 0, "hold_a"), 0.05 * waitA, "lock A's waiting on hold_a");
        assertEquals(
                waitB, totalMs(profile, "mutex_blame.lock", 0, "hold_b"), 0.05 * waitB, "lock B's waiting on hold_b");
    }

    /** An ordered loop whose ordered part is the bottleneck: the waiting for turns is blamed on the ordered body. */
    @Test
    void orderedWaitingIsBlamedOnTheOrderedBody() throws Exception {
        Path profile = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("ordered_body"), "20", "0.02");
        double waited = totalMs(profile, "time.ordered", 0, null);
        // 20 iterations of 20 ms in turn: the other thread waits for all but about the first, plus each hand-over
        // (libomp takes up to a few ms to let the next thread in on this host)
        assertTrue(waited >= 0.85 * 380 && waited <= 1.5 * 380, "ordered waiting " + waited + " ms");
        assertEquals(
                waited, totalMs(profile, "mutex_blame.ordered", 0, "ordered_body"), 0.05 * waited, "on ordered_body");
    }

    /**
     * Waits at two levels: the inner barrier's waiting is blamed on inner_work, the outer's on
     * outer_extra. Four threads share two cores here, and on a busy host descheduling moves the
     * work in wall time: an outer thread may still be in its inner team's inner_work while the
     * other waits at the outer barrier, and that waiting then rightly goes to inner_work (seen:
     * up to 13% more on inner_work, 28% less on outer_extra at load 5); a descheduled worker
     * leaves gaps in its samples, read from its samples around them. What the rules guarantee
     * whatever the load is asserted: outer_extra never gets inner waiting (its team never waits
     * for it); inner waiting goes to inner_work unless unattributed; at most 5% unattributed;
     * nothing else is blamed; every nanosecond is charged once. The paper values are bounds.
     */
    @Test
    void nestedWaitsAreBlamedAtTheirOwnLevel() throws Exception {
        Path profile = record(Map.of("OMP_MAX_ACTIVE_LEVELS", "2"), CPrograms.clang("nested_waits"), "0.05", "2", "3");
        double inner = totalMs(profile, "time.barrier", 0, "middle");
        double all = totalMs(profile, "time.barrier", 0, null);
        double outer = all - inner;
        // at least the paper values; on a busy host four threads on two cores wait longer (fork and join get slow)
        assertTrue(
                inner >= 0.8 * 300 && inner <= 2 * 300,
                "inner waiting: 2 teams x 3 rounds x 1 unit of 50 ms, was " + inner);
        assertTrue(outer >= 0.8 * 300 && outer <= 2 * 300, "outer waiting: 3 rounds x 2 units of 50 ms, was " + outer);
        double onInner = totalMs(profile, "barrier_blame", 0, "inner_work"),
                onOuter = totalMs(profile, "barrier_blame", 0, "outer_extra");
        double unattributed = totalMs(profile, "barrier_blame", 0, "<unattributed>");
        // nobody worked: the barrier's own latency, at the waiter's context (the barrier, or the runtime's code there)
        double latency = totalMs(profile, "barrier_blame", 0, "<omp barrier>")
                + totalMs(profile, "barrier_blame", 0, "<omp runtime>");
        String seen = String.format(
                java.util.Locale.ROOT,
                "inner %.0f, outer %.0f ms waited; on inner_work %.0f, outer_extra %.0f, unattributed %.0f, "
                        + "barrier latency %.0f",
                inner,
                outer,
                onInner,
                onOuter,
                unattributed,
                latency);
        assertTrue(onOuter <= 1.05 * outer, "outer_extra gets outer waiting only: " + seen);
        assertTrue(
                onInner >= 0.9 * inner - unattributed - latency,
                "inner waiting goes to inner_work unless nobody worked: " + seen);
        assertTrue(
                onInner >= 0.5 * inner && onOuter >= 0.5 * outer,
                "most waiting at each level is blamed on its own code: " + seen);
        assertTrue(unattributed <= 0.05 * all, "waiting finds its cause: " + seen);
        // a sample of a waiter inside libomp's barrier code (a named runtime frame) carries its latency there too
        assertEquals(all, onInner + onOuter + unattributed + latency, 0.02 * all, "nothing else is blamed: " + seen);
        assertEquals(all, totalMs(profile, "barrier_blame", 0, null), 0.001 * all, "conservation");
    }

    /**
     * With twice as many threads as CPUs a thread also waits at a barrier for another to get a CPU: the report says so
     * beside the imbalance it finds (the run line gives the CPUs); with no more threads than CPUs it does not.
     */
    @Test
    void moreThreadsThanCpusIsSaid() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        Path loaded = record(
                Map.of("OMP_NUM_THREADS", Integer.toString(2 * cpus)), CPrograms.clang("imbalance_loop"), "0.1", "2");
        Ompprof.Result r = Ompprof.read("report", loaded.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains(" threads on " + cpus + " CPUs, "), r.out());
        assertTrue(
                r.out()
                        .contains(
                                "note      " + 2 * cpus + " threads on " + cpus + " CPUs: threads also wait for a CPU"),
                r.out());
        Path fitting = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("imbalance_loop"), "0.1", "2");
        Ompprof.Result f = Ompprof.read("report", fitting.toString());
        assertEquals(cpus >= 2, !f.out().contains("threads also wait for a CPU"), f.out());
    }

    /** libomp 19 reports a taskwait as work; the profile's state follows the leaf __kmpc_omp_taskwait. */
    @Test
    void taskwaitIsTaskwaitTime() throws Exception {
        Path profile = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("taskwait_wait"), "10", "0.03");
        double taskwait = totalMs(profile, "time.taskwait", 0, "producer");
        // 10 rounds: the task runs 30 ms on the other thread, the producer spins 5 ms, then waits the rest
        assertTrue(taskwait >= 0.8 * 250 && taskwait <= 1.4 * 250, "taskwait " + taskwait + " ms");
        assertTrue(
                totalMs(profile, "time.work_parallel", 0, "task_body") >= 0.8 * 300, "the other thread runs the tasks");
    }

    /** The report names the imbalance and its cause, and the critical section's holder, in plain sentences. */
    @Test
    void reportStatesTheFindings() throws Exception {
        Path imbalance = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("imbalance_loop"), "0.1", "2");
        Ompprof.Result r = Ompprof.read("report", "--top", "3", "--thread-table", imbalance.toString());
        assertEquals(0, r.status(), r.err());
        String findings = r.out().substring(r.out().indexOf("findings, by cost"));
        assertTrue(
                findings.contains("1. ")
                        && findings.contains("barrier waiting in the parallel region at imbalance_loop.c:")
                        && findings.contains("x the mean: imbalance, caused by spin_for() called from work_units() at "
                                + "imbalance_loop.c:"),
                r.out());
        // thread 1 works 2 units to thread 0's 1: max/mean = 2/1.5 = 1.33 (sampled: within 0.08)
        assertEquals(4.0 / 3, figure(findings, "works (\\d+\\.\\d+)x the mean"), 0.1, r.out());
        assertEquals(4.0 / 3, figure(r.out(), "imbalance (\\d+\\.\\d+)"), 0.08, r.out());
        assertTrue(r.out().contains("time per OpenMP state, per thread"), r.out());
        findings.lines()
                .filter(l -> l.matches("\\s+\\d+\\. .*"))
                .forEach(l -> assertTrue(
                        l.trim().replaceFirst("^\\d+\\. ", "").length() <= 240,
                        "a finding of at most 240 characters: " + l));

        Path critical = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("critical_body"), "10", "0.02");
        Ompprof.Result c = Ompprof.read("report", critical.toString());
        assertEquals(0, c.status(), c.err());
        assertTrue(
                c.out().contains("critical at critical_body.c:")
                        && c.out().contains("waiters lose ")
                        && c.out()
                                .matches("(?s).*blamed on spin_for\\(\\) called from crit_body\\(\\) at "
                                        + "critical_body\\.c:\\d+ \\(holder\\).*"),
                c.out());
    }

    @Test
    void criticalWaitingIsBlamedOnTheBody() throws Exception {
        Path profile = record(Map.of("OMP_NUM_THREADS", "2"), CPrograms.clang("critical_body"), "20", "0.02");
        double waited = totalMs(profile, "time.lock", 0, null) + totalMs(profile, "time.critical", 0, null);
        double blamed = totalMs(profile, "mutex_blame.critical", 0, "crit_body");
        // two threads, 20 rounds of 20 ms each: 800 ms of holding, all but the last hold with the other thread waiting;
        // each hand-over adds the time the waiter takes to get going again, which a busy 2-core host stretches
        assertTrue(
                waited >= 0.9 * 800 && waited <= 1.3 * 800,
                "critical waiting (libomp 19 reports it as wait_lock): " + waited);
        assertEquals(waited, blamed, 0.05 * waited, "critical waiting blamed on crit_body");
    }

    /** The first number the pattern's group captures in text. */
    private static double figure(String text, String pattern) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(text);
        assertTrue(m.find(), "no '" + pattern + "' in: " + text);
        return Double.parseDouble(m.group(1));
    }
}
