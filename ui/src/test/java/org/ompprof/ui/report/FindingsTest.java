package org.ompprof.ui.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ompprof.blame.BlameKind;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.MetricStorage;
import org.ompprof.calltree.MetricUnit;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.unwinder.stitch.StitchCounters;

class FindingsTest {
    private static final String LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    private static final long MS = 1_000_000;

    /**
     * A critical section's holder spends its hold in its own loop, in memcpy and in clock_gettime (through now_s, in
     * the vDSO). The vDSO's context alone has the most blame, but update_table holds the mutex for the most of it
     * (its own 30 ms and memcpy's 40 ms against now_s's 50 ms): the finding names update_table and its line, and
     * points at update_table's context, not a system library's.
     */
    @Test
    void theHolderIsTheUsersFunctionWithTheMostBlameUnderIt() {
        CriticalProfile c = criticalProfile(0);
        List<Finding> found = Report.findings(c.profile());
        assertEquals(1, found.size(), found.toString());
        assertEquals(
                "critical at app.c:41: waiters lose 120.0 ms (37.5% of thread time), blamed on update_table() called "
                        + "from critical_phase() at app.c:41 (holder)",
                found.getFirst().text());
        assertEquals(c.update(), found.getFirst().node(), "the finding points at update_table's context");
    }

    /**
     * The critical of {@link #theHolderIsTheUsersFunctionWithTheMostBlameUnderIt}, 100 of its 120 ms waited while
     * nobody held it (handed on to threads waiting for a core): the finding says so, and what to do. At 60 ms (half)
     * it says nothing more: the holder's code is then as much the cause.
     */
    @Test
    void waitingMostlyBetweenHoldersIsNamedForTheCores() {
        assertEquals(
                "critical at app.c:41: waiters lose 120.0 ms (37.5% of thread time), blamed on update_table() called "
                        + "from critical_phase() at app.c:41 (holder); but 83.3% of it while nobody held it, the next "
                        + "holder not yet running: more threads than free cores (run fewer, or keep other work off "
                        + "their cores)",
                Report.findings(criticalProfile(100 * MS).profile()).getFirst().text());
        assertTrue(Report.findings(criticalProfile(60 * MS).profile())
                .getFirst()
                .text()
                .endsWith("(holder)"));
    }

    private record CriticalProfile(Profile profile, int update) {}

    /** 120 ms of waiting for a critical held in update_table, {@code handedOverNs} of it while nobody held it. */
    private static CriticalProfile criticalProfile(long handedOverNs) {
        CallingContextTree tree = CallingContextTree.create();
        int main = frame(tree, "/work/app", "main", "app.c", 50);
        int phase = frame(tree, "/work/app", "critical_phase", "app.c", 40);
        int update = frame(tree, "/work/app", "update_table", "app.c", 31);
        int now = frame(tree, "/work/app", "now_s", "app.c", 10);
        int clock = frame(tree, LIBC, "__clock_gettime", null, 0);
        int vdso = frame(tree, "linux-vdso.so.1", "__vdso_clock_gettime", null, 0);
        int memcpy = frame(tree, LIBC, "__memcpy_avx_unaligned", null, 0);
        int wait = frame(tree, "/usr/lib/llvm-19/lib/libomp.so.5", "__kmpc_critical", null, 0);
        int metric = tree.metrics()
                .register(
                        BlameKind.MUTEX_CRITICAL.metric(),
                        MetricUnit.NANOSECONDS,
                        "critical blame",
                        MetricStorage.SPARSE,
                        null)
                .index();
        int updateNode = tree.path(new int[] {main, phase, update});
        int vdsoNode = tree.path(new int[] {main, phase, update, now, clock, vdso});
        tree.add(updateNode, 1, metric, 30 * MS);
        tree.add(tree.path(new int[] {main, phase, update, memcpy}), 1, metric, 40 * MS);
        tree.add(vdsoNode, 1, metric, 50 * MS);
        // the waiters' own time: 120 ms waiting in the critical, 200 ms of other work
        tree.addSample(2, new int[] {main, phase, wait}, 0x042, 120 * MS);
        tree.addSample(1, new int[] {main, phase}, 0x001, 200 * MS);
        LineTable.Builder lines = new LineTable.Builder();
        lines.add(tree.parent(updateNode), 41, 120 * MS, false);
        MutexTable mutexes = new MutexTable(List.of(new MutexTable.Row(
                "", BlameKind.MUTEX_CRITICAL.metric(), "/work/app.c", 41, 120 * MS, vdsoNode, 50 * MS)));
        StitchCounters counters = StitchCounters.fromMap(Map.of());
        Profile p = new Profile(
                tree,
                List.of(),
                counters,
                Map.of("waited_ns.mutex_critical", 120 * MS, "handed_over_ns.mutex_critical", handedOverNs),
                new RegionTable(List.of()),
                mutexes,
                lines.build(),
                2);
        return new CriticalProfile(p, updateNode);
    }

    /**
     * 100 tasks do 10 ms of their own work and spend 30 ms in the runtime's task code (state task_scheduling, under
     * __kmpc_omp_task inside the tasks); their parent waits 60 ms in taskwait; 20 ms of task creation outside any task
     * (the first tasks' creator) is no task's. A mean task of 100 us is not small by itself: the runtime's share of the
     * tasks' time (30 of 40 ms) makes them small, and the cost is the waiting and that share (90 of 120 ms).
     */
    @Test
    void tasksSpendingTheirTimeInTaskSchedulingAreSmall() {
        CallingContextTree tree = CallingContextTree.create();
        FibFrames f = FibFrames.in(tree);
        int work = OmpState.WORK_PARALLEL.code(), scheduling = OmpState.TASK_SCHEDULING.code();
        tree.addSample(1, new int[] {f.main, f.fib, f.task, f.fib}, work, 10 * MS);
        tree.addSample(1, new int[] {f.main, f.fib, f.task, f.fib, f.create}, scheduling, 30 * MS);
        tree.addSample(2, new int[] {f.main, f.fib, f.create}, scheduling, 20 * MS);
        tree.addSample(2, new int[] {f.main, f.fib, f.taskwait}, OmpState.WAIT_TASKWAIT.code(), 60 * MS);
        assertEquals(
                "75.0% of thread time is task waiting and task overhead: 100 tasks (task at fib.c:12 in fib(), "
                        + "running fib()) do 100 us of work each on average; make them larger (a cut-off, an if or "
                        + "final clause)",
                onlyFinding(tree, 100));
    }

    /**
     * A recursion's tasks on a loaded machine: the construct's heaviest context holds only the runtime's code (the
     * window in which libomp finishes a returned task), its other contexts the body. The body is what they run.
     */
    @Test
    void aTaskBodyIsNamedFromAllTheConstructsContexts() {
        CallingContextTree tree = CallingContextTree.create();
        FibFrames f = FibFrames.in(tree);
        tree.addSample(1, new int[] {f.main, f.fib, f.task, f.create}, OmpState.TASK_SCHEDULING.code(), 40 * MS);
        tree.addSample(
                2, new int[] {f.main, f.fib, f.task, f.fib, f.task, f.fib}, OmpState.WORK_PARALLEL.code(), 10 * MS);
        tree.addSample(2, new int[] {f.main, f.fib, f.taskwait}, OmpState.WAIT_TASKWAIT.code(), 50 * MS);
        String finding = onlyFinding(tree, 100);
        assertTrue(finding.contains("(task at fib.c:12 in fib(), running fib())"), finding);
    }

    /**
     * A single producer (sparselu's shape): one outer task, opened once, creates 100 tasks that run bmod() and waits
     * 400 ms for them in taskwait. The outer task holds them all inclusively (720 ms) but only 20 ms of work of its
     * own, the tasks it creates 300 ms: the finding names those, among the two constructs, with the function they
     * run.
     */
    @Test
    void nestedTasksAreNamedForTheirOwnTimeNotTheirProducers() {
        CallingContextTree tree = CallingContextTree.create();
        int main = frame(tree, "/work/lu", "main", "lu.c", 300);
        int call = frame(tree, "/work/lu", "par_call", "lu.c", 220);
        int region = frame(tree, "/work/lu", "parallel at lu.c:221", "lu.c", 221);
        int outer = frame(tree, "/work/lu", "task at lu.c:223", "lu.c", 223);
        int inner = frame(tree, "/work/lu", "task at lu.c:246", "lu.c", 246);
        int bmod = frame(tree, "/work/lu", "bmod", "lu.c", 80);
        int lu0 = frame(tree, "/work/lu", "lu0", "lu.c", 40);
        int taskwait = runtime(tree, "__kmpc_omp_taskwait");
        int work = OmpState.WORK_PARALLEL.code();
        tree.addSample(1, new int[] {main, call, region, outer, inner, bmod}, work, 150 * MS);
        tree.addSample(2, new int[] {main, call, region, outer, inner, bmod}, work, 150 * MS);
        tree.addSample(1, new int[] {main, call, region, outer, lu0}, work, 20 * MS);
        tree.addSample(1, new int[] {main, call, region, outer, taskwait}, OmpState.WAIT_TASKWAIT.code(), 400 * MS);
        assertEquals(
                "55.6% of thread time is waiting in taskwait for the longest tasks: 101 tasks (most time in task at "
                        + "lu.c:246 in par_call(), running bmod()) take 3.2 ms each on average; create the largest "
                        + "first, or split them",
                onlyFinding(tree, 101));
    }

    /** The text of the one finding of a profile of {@code tree} with {@code tasks} explicit tasks. */
    private static String onlyFinding(CallingContextTree tree, long tasks) {
        Profile p = new Profile(
                tree,
                List.of(),
                StitchCounters.fromMap(Map.of("tasks", tasks)),
                Map.of(),
                new RegionTable(List.of()),
                new MutexTable(List.of()),
                new LineTable.Builder().build(),
                2);
        List<Finding> found = Report.findings(p);
        assertEquals(1, found.size(), found.toString());
        return found.getFirst().text();
    }

    /** A task-per-call fib's frames: main, fib, its task construct and the runtime's task entry and taskwait. */
    private record FibFrames(int main, int fib, int task, int create, int taskwait) {
        static FibFrames in(CallingContextTree tree) {
            return new FibFrames(
                    frame(tree, "/work/fib", "main", "fib.c", 30),
                    frame(tree, "/work/fib", "fib", "fib.c", 12),
                    frame(tree, "/work/fib", "task at fib.c:12", "fib.c", 12),
                    runtime(tree, "__kmpc_omp_task"),
                    runtime(tree, "__kmpc_omp_taskwait"));
        }
    }

    private static int runtime(CallingContextTree tree, String function) {
        return tree.frames().intern(Frame.of(FrameKind.RUNTIME, "/usr/lib/llvm-19/lib/libomp.so.5", function, null, 0));
    }

    /**
     * A region's barrier waiting blamed on Hydro::calcWork: 20 ms on its own code, 30 ms on its inlined operator+ and
     * 25 ms on its inlined operator=. The finding names calcWork, which the operators split (not operator+, the node
     * with the most); an inlined function with most of its caller's blame keeps it.
     */
    @Test
    void inlinedOperatorsGiveTheirBlameToTheFunctionTheyWereInlinedInto() {
        assertTrue(inlinedBlame(30 * MS).contains("imbalance, caused by Hydro::calcWork()"), inlinedBlame(30 * MS));
        assertTrue(inlinedBlame(300 * MS).contains("imbalance, caused by operator+()"), inlinedBlame(300 * MS));
    }

    private static String inlinedBlame(long plusNs) {
        CallingContextTree tree = CallingContextTree.create();
        int main = frame(tree, "/work/pennant", "main", "main.cc", 10);
        int construct = frame(tree, "/work/pennant", "doCycle_body", "Hydro.cc", 211);
        int calc = frame(tree, "/work/pennant", "Hydro::calcWork", "Hydro.cc", 300);
        int plus = tree.frames().intern(Frame.of(FrameKind.INLINED, "/work/pennant", "operator+", "Vec2.hh", 40));
        int assign = tree.frames().intern(Frame.of(FrameKind.INLINED, "/work/pennant", "operator=", "Vec2.hh", 60));
        int barrier = tree.metrics()
                .register(
                        BlameKind.BARRIER.metric(), MetricUnit.NANOSECONDS, "barrier blame", MetricStorage.SPARSE, null)
                .index();
        int regionNode = tree.path(new int[] {main});
        int calcNode = tree.path(new int[] {main, construct, calc});
        tree.add(calcNode, 1, barrier, 20 * MS);
        tree.add(tree.path(new int[] {main, construct, calc, plus}), 1, barrier, plusNs);
        tree.add(tree.path(new int[] {main, construct, calc, assign}), 1, barrier, 25 * MS);
        long waited = 45 * MS + plusNs;
        tree.addSample(1, new int[] {main, construct, calc}, OmpState.WORK_PARALLEL.code(), 4 * waited);
        tree.addSample(2, new int[] {main, construct}, OmpState.WAIT_BARRIER_IMPLICIT_PARALLEL.code(), waited);
        long[] heavy = new long[RegionTable.Column.values().length], light = heavy.clone();
        heavy[RegionTable.Column.WORK.ordinal()] = 3 * waited;
        light[RegionTable.Column.WORK.ordinal()] = waited;
        light[RegionTable.Column.BARRIER.ordinal()] = waited;
        int[] body = {tree.path(new int[] {main, construct})};
        RegionTable regions = new RegionTable(List.of(
                new RegionTable.Row(regionNode, 10, "Hydro.cc", 211, 1, heavy, body),
                new RegionTable.Row(regionNode, 10, "Hydro.cc", 211, 2, light, body)));
        Profile p = new Profile(
                tree,
                List.of(),
                StitchCounters.fromMap(Map.of()),
                Map.of("waited_ns.barrier", waited),
                regions,
                new MutexTable(List.of()),
                new LineTable.Builder().build(),
                2);
        return Report.findings(p).toString();
    }

    private static int frame(CallingContextTree tree, String module, String function, String file, int line) {
        return tree.frames().intern(Frame.of(FrameKind.USER, module, function, file, line));
    }
}
