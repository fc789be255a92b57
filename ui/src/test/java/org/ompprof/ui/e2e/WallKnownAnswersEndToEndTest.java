package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wall-mode known answers (imbalance_sleep.c): in each of R regions thread t of T sleeps or
 * works (1+2t) units, then waits for the slowest at the barrier. On paper: imbalance (max/mean
 * work) (2T-1)/T, i.e. load balance T/(2T-1); barrier waiting R*T*(T-1) units; sleeping or
 * working R*T*T units under the function that does it, as work (a thread sleeping in its own
 * code is working as far as OpenMP is concerned). With 2 threads and with 4 (twice
 * this machine's cores: the loaded variant). Also an ordered loop (ordered_sleep.c) and a task
 * group of eight tasks of 1..8 units (taskgroup_sleep.c), their paper values at their tests.
 */
class WallKnownAnswersEndToEndTest {
    private static final double UNIT_MS = 40;
    private static final int REGIONS = 6;
    /**
     * Within 5% quiet (measured: 2 and 4 threads); on a machine loaded by other processes as well (under-load 2) the
     * wall sampler, one more thread competing for the cores, moves sampled sums by up to 15% (see issue 15).
     */
    private static final double TOLERANCE = 0.15;

    @TempDir
    Path work;

    /** Records one of the known-answer programs (PROGRAM sleep|work UNIT COUNT) on {@code threads} threads. */
    /** The ordered units' own time as ordered_sleep summed it. */
    private static double unitsTookMs(String out) {
        Matcher m = Pattern.compile("units took (\\d+\\.\\d+) s").matcher(out);
        assertTrue(m.find(), out);
        return Double.parseDouble(m.group(1)) * 1000;
    }

    private Ompprof.Result record(Path profile, String program, String mode, int threads, int count) throws Exception {
        Ompprof.Result r = Ompprof.record(
                work,
                threads,
                profile,
                CPrograms.clang(program).toString(),
                mode,
                Double.toString(UNIT_MS / 1000),
                Integer.toString(count));
        assertEquals(0, r.status(), r.err());
        return r;
    }

    @ParameterizedTest
    @CsvSource({"sleep, 2", "sleep, 4", "work, 2", "work, 4"})
    void imbalancedLoop(String mode, int threads) throws Exception {
        Path profile = work.resolve(mode + threads + ".ompprof");
        Ompprof.Result r = record(profile, "imbalance_sleep", mode, threads, REGIONS);
        assertTrue(r.out().contains(threads * threads * REGIONS + " units"), "every sleep ran whole: " + r.out());

        double waiting = BlameTotals.totalMs(work, profile, "time.barrier", 0, null);
        double paperWaiting = REGIONS * threads * (threads - 1) * UNIT_MS;
        assertEquals(paperWaiting, waiting, TOLERANCE * paperWaiting, "barrier waiting");

        String body = mode.equals("sleep") ? "sleep_units" : "work_units";
        double busy = BlameTotals.totalMs(work, profile, "time.work_parallel", 0, body);
        double paperBusy = REGIONS * threads * threads * UNIT_MS;
        assertEquals(paperBusy, busy, TOLERANCE * paperBusy, body + " as work_parallel");

        Ompprof.Result report = Ompprof.read("report", profile.toString());
        Matcher m = Pattern.compile("imbalance (\\d+\\.\\d+)").matcher(report.out());
        assertTrue(m.find(), report.out());
        double paperImbalance = (2.0 * threads - 1) / threads;
        assertEquals(
                paperImbalance, Double.parseDouble(m.group(1)), 0.05 * paperImbalance, "imbalance = 1 / load balance");
    }

    /**
     * short_pieces.c: REGIONS short regions in each of which every thread runs one piece of 300 us of CPU time, on 2
     * threads and on twice the CPUs. The profile's work in work_piece is the wall time the threads timed their pieces
     * by. On twice the CPUs half the threads wait for a CPU, most of them in the barrier, and the sampler (one more
     * thread wanting a CPU) looks at them when it gets one: its ticks used to stand for the time up to the signal's
     * delivery, which gave the work before each barrier to the barrier, and it was late to a quarter of its ticks,
     * taken when a thread yielded its CPU in the barrier (work 70-88% of the program's timing). Within 10% when the
     * program had the CPUs to itself (it says what share of them it had). On a machine loaded by other processes
     * (under-load 2) a thread that wakes, the sampler or any other, finds the program's threads at work less often
     * than they are (an observer thread of the program's own, no profiler: 8% of its looks for 11% of the time):
     * between 45% and 110% then (measured: 61-65% on twice the CPUs, 69-87% on 2 threads; before, 16-41% and
     * 36-70%: scripts/bench-wall-truth).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shortRegionsWorkAsLongAsTheProgramTimedIt(int perCpu) throws Exception {
        int threads = perCpu == 1 ? 2 : perCpu * Runtime.getRuntime().availableProcessors();
        Path profile = work.resolve("pieces" + threads + ".ompprof");
        Ompprof.Result r = Ompprof.record(
                work, threads, profile, CPrograms.clang("short_pieces").toString(), "1000", "300");
        assertEquals(0, r.status(), r.err());
        Matcher m = Pattern.compile("pieces took (\\d+\\.\\d+) ms, cpu share (\\d+\\.\\d+)")
                .matcher(r.out());
        assertTrue(m.find(), r.out());
        double timed = Double.parseDouble(m.group(1));
        double share = Double.parseDouble(m.group(2));
        double worked = BlameTotals.totalMs(work, profile, "time.work_parallel", 0, "work_piece");
        String what = "work_piece's work, as the program timed it (" + r.out().strip() + ")";
        if (share >= 0.8) assertEquals(timed, worked, 0.10 * timed, what);
        else assertTrue(worked >= 0.45 * timed && worked <= 1.10 * timed, what + ": " + worked + " ms");
    }

    /**
     * ordered_sleep.c: ROUNDS x T one-unit ordered sections (sleeping or spinning) run one after another, so
     * each thread works 1/T of the time. On paper, in units: work R*T under ordered_unit; ordered waiting
     * T(T-1)/2 + T(R-1)(T-1); barrier waiting T(T-1)/2. Every sleep runs whole: the wall sampler must not take
     * a thread sleeping in the ordered section (whose last sample found it waiting for its turn) for one
     * waiting in the runtime, and signal it. The units are as long as the program timed them: a stall of the
     * machine in one (a fresh-clone run saw 626 ms of work for 480 on paper) lengthens it, and the others'
     * waiting for their turn by about as much.
     */
    @ParameterizedTest
    @CsvSource({"sleep, 2", "sleep, 4", "work, 2", "work, 4"})
    void orderedLoopSerializes(String mode, int threads) throws Exception {
        int rounds = 6;
        Path profile = work.resolve("ordered-" + mode + threads + ".ompprof");
        Ompprof.Result r = record(profile, "ordered_sleep", mode, threads, rounds);
        assertTrue(r.out().contains(threads * rounds + " units"), r.out());
        assertTrue(!r.err().contains("nanosleep"), "every sleep ran whole: " + r.err());

        double worked = BlameTotals.totalMs(work, profile, "time.work_parallel", 0, "ordered_unit");
        double paperWork = rounds * threads * UNIT_MS;
        double unitsMs = unitsTookMs(r.out());
        assertEquals(paperWork, unitsMs, 0.5 * paperWork, "the program's units: " + r.out());
        assertEquals(unitsMs, worked, TOLERANCE * unitsMs, "the ordered sections' work, as the program timed it");
        double ordered = BlameTotals.totalMs(work, profile, "time.ordered", 0, null);
        double paperOrdered = (threads * (threads - 1) / 2.0 + threads * (rounds - 1) * (threads - 1)) * UNIT_MS;
        double longer = unitsMs / paperWork; // the others wait out a stalled unit too
        assertEquals(
                paperOrdered * longer,
                ordered,
                TOLERANCE * paperOrdered * longer,
                "waiting for the turn in the ordered loop");
        double barrier = BlameTotals.totalMs(work, profile, "time.barrier", 0, null);
        double serialized = worked / (worked + ordered + barrier);
        assertEquals(1.0 / threads, serialized, 0.05, "each thread works 1/T of the time");
    }

    /**
     * taskgroup_sleep.c: in each of ROUNDS rounds in one region, one thread (the producer) opens a taskgroup of
     * eight tasks of 1..8 units, created in an order that leaves libomp's schedule (the producer takes its newest
     * task, a thief the oldest) to no race. On paper, per round: 36 units of task work under task_units, in the
     * task construct of make_tasks (every sample of a task under the code that created it); with 2 threads a round
     * takes 21 units, the producer waits 6 at the taskgroup's end and the other thread none at the single's
     * barrier; with 4, 12 units, 6 at the taskgroup's end and 0+1+5 at the barrier. The taskgroup waiting is the
     * state taskgroup (libomp 19 reports it as work), under make_tasks; nobody idles in the region.
     *
     * <p>The waiting, though, follows the schedule the run really had, and a task scheduler's is dynamic: on a busy
     * host late steals and ends move waiting between the producer and the others and lengthen rounds (measured:
     * sleeping tasks, 14.1 units a round instead of 12, taskgroup waiting +34%, barrier +100%; spinning ones on twice
     * the cores, barrier +66%), while on a quiet one the run keeps the paper's schedule (sleeping tasks within 2%). So
     * the program keeps its own ledger of the three sums by its clocks, and the profile's waiting is held to the ledger
     * (the paper values are in the messages); the task work, which no schedule changes, to the paper and the ledger.
     * Sums within TOLERANCE (15%, for a loaded machine), against the paper waiting (6 units a round) where the expected
     * value is near zero; the tasks' share of all thread time, a ratio, within 5%. 4 threads is the loaded variant
     * (twice this machine's cores).
     */
    @ParameterizedTest
    @CsvSource({"sleep, 2", "sleep, 4", "work, 2", "work, 4"})
    void taskgroupOfEightTasks(String mode, int threads) throws Exception {
        int rounds = 4;
        Path profile = work.resolve("taskgroup-" + mode + threads + ".ompprof");
        Ompprof.Result r = record(profile, "taskgroup_sleep", mode, threads, rounds);
        assertTrue(r.out().contains(36 * rounds + " units"), r.out());
        assertTrue(!r.err().contains("nanosleep"), "every sleep ran whole: " + r.err());
        Matcher ledger = Pattern.compile(
                        "ledger: task work ([0-9.]+) ms, taskgroup waiting ([0-9.]+) ms, barrier waiting ([0-9.]+) ms")
                .matcher(r.out());
        assertTrue(ledger.find(), r.out());

        double units = rounds * UNIT_MS; // one unit a round, in ms
        double ledgerWork = Double.parseDouble(ledger.group(1));
        double expectedTaskgroup = Double.parseDouble(ledger.group(2));
        double expectedBarrier = Double.parseDouble(ledger.group(3));
        String seen = "paper: work " + 36 * units + " ms, taskgroup " + 6 * units + ", barrier "
                + (threads == 2 ? 0 : 6 * units) + "; the run's " + ledger.group();

        double taskWork = BlameTotals.totalMs(work, profile, "time.work_parallel", 0, "task_units");
        assertEquals(36 * units, taskWork, TOLERANCE * 36 * units, "the tasks' work, on paper; " + seen);
        assertEquals(ledgerWork, taskWork, TOLERANCE * ledgerWork, "the tasks' work, by the run's clocks; " + seen);
        double inTasks = BlameTotals.totalMs(work, profile, "time", 0, "task_units");
        double underCreator = BlameTotals.totalWhereMs(work, profile, "time", 0, p -> {
            int body = p.indexOf("task_units");
            return body >= 2
                    && p.get(body - 1).startsWith("task at taskgroup_sleep.c:")
                    && p.get(body - 2).equals("make_tasks");
        });
        assertEquals(inTasks, underCreator, 0, "every sample of a task in its construct, under make_tasks");
        // The views the sleeping tasks were sampled from outside by were, from the agent's 17th switch to a task on,
        // made
        // from the tasks' data, no longer asked of the runtime (whose first answers showed where it keeps a task's
        // frame): the sleeps that ran whole and the samples under make_tasks above are theirs too.
        String info = Ompprof.read("info", profile.toString()).out();
        assertTrue(info.contains("the others made from the tasks' data"), info);

        double taskgroup = BlameTotals.totalMs(work, profile, "time.taskgroup", 0, null);
        assertEquals(
                expectedTaskgroup,
                taskgroup,
                TOLERANCE * Math.max(expectedTaskgroup, 6 * units),
                "the producer's taskgroup waiting; " + seen);
        assertEquals(
                taskgroup,
                BlameTotals.totalMs(work, profile, "time.taskgroup", 0, "make_tasks"),
                0,
                "the taskgroup waiting where the producer waits, in make_tasks");
        // the single's barrier (the first region, where the threads start, ends at a barrier of its own)
        double barrier = BlameTotals.totalMs(work, profile, "time.barrier.implicit_workshare", 0, null);
        assertEquals(
                expectedBarrier,
                barrier,
                TOLERANCE * Math.max(expectedBarrier, 6 * units),
                "the other threads' barrier waiting; " + seen);
        double idle = BlameTotals.totalMs(work, profile, "time.idle", 0, null);
        assertEquals(0, idle, TOLERANCE * 6 * units, "nobody idles in the region (only after it, until exit)");
        double expectedShare = ledgerWork / (ledgerWork + expectedTaskgroup + expectedBarrier);
        assertEquals(
                expectedShare,
                taskWork / (taskWork + taskgroup + barrier + idle),
                0.05 * expectedShare,
                "the tasks' share of all thread time; " + seen);

        // the waiting finds its cause: the tasks the others run (at most 5% unattributed, the goal)
        double allBarrier = BlameTotals.totalMs(work, profile, "time.barrier", 0, null);
        assertTrue(
                BlameTotals.totalMs(work, profile, "barrier_blame", 0, "<unattributed>") <= 0.05 * allBarrier,
                "barrier waiting unattributed");
        if (threads > 2)
            assertTrue(
                    BlameTotals.totalMs(work, profile, "barrier_blame", 0, "task_units") >= 0.9 * barrier,
                    "the single's barrier waiting blamed on the tasks");
        // one name for the state in report and info, with one figure
        Matcher inReport = Pattern.compile("\\n  taskgroup +([0-9.]+ m?s)")
                .matcher(Ompprof.read("report", profile.toString()).out());
        Matcher inInfo = Pattern.compile("time per state \\(as report, exports and the viewer count it\\): .*taskgroup "
                        + "([0-9.]+ m?s)")
                .matcher(Ompprof.read("info", profile.toString()).out());
        assertTrue(inReport.find() && inInfo.find(), "the state taskgroup in report and info");
        assertEquals(inReport.group(1), inInfo.group(1), "the same taskgroup time in report and info");
    }
}
