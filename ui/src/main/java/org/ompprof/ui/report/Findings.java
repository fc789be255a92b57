package org.ompprof.ui.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import org.ompprof.blame.BlameKind;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.sampler.omp.OmpState;

/**
 * Plain-sentence findings, each with the thread time it costs (what fixing it would save, in
 * the spirit of VTune's potential gain): imbalance at a region's barrier, regions too small for
 * their overhead, mutex contention, serial code that leaves threads idle, MPI ranks waiting for a
 * late rank, tasks too small for their overhead, and waiting that found no cause.
 */
final class Findings {
    /** Findings below this share of all thread time are not worth a sentence. */
    private static final double WORTH = 0.02;
    /** A region opened at least this often, ... */
    private static final int SMALL_REGION_INSTANCES = 1000;
    /**
     * ... with at most this much work per instance (its busiest thread's; not its elapsed time, which on a loaded
     * machine grows with the waiting for descheduled threads), and a tenth of its work or more waiting, is too small.
     */
    private static final long SMALL_REGION_NS = 100_000;

    private final Profile p;
    private final CallingContextTree tree;
    private final long total;
    private final Map<RegionTable.Region, List<RegionTable.Row>> regions;
    /** A thread's name as the report's tables give it (rank.thread in a job profile). */
    private final IntFunction<String> threadName;

    Findings(
            Profile p,
            CallingContextTree tree,
            long total,
            Map<RegionTable.Region, List<RegionTable.Row>> regions,
            IntFunction<String> threadName) {
        this.p = p;
        this.tree = tree;
        this.total = total;
        this.regions = regions;
        this.threadName = threadName;
    }

    List<Finding> all() {
        List<Finding> out = new ArrayList<>();
        regions.forEach((region, rows) -> {
            if (!tooSmall(region.node(), rows, out)) barrier(region.node(), rows, out);
        });
        for (MutexTable.Row m : p.mutexes().rows()) mutex(m, out);
        idle(out);
        mpi(out);
        tasks(out);
        unattributed(out);
        out.sort(Comparator.comparingLong(f -> -f.costNs()));
        return out;
    }

    private boolean worth(long ns) {
        return total > 0 && ns >= WORTH * total;
    }

    private void barrier(int region, List<RegionTable.Row> rows, List<Finding> out) {
        long barrier =
                rows.stream().mapToLong(r -> r.ns(RegionTable.Column.BARRIER)).sum();
        if (!worth(barrier)) return;
        RegionTable.Row heaviest = rows.stream()
                .max(Comparator.comparingLong(r -> r.ns(RegionTable.Column.WORK)))
                .orElseThrow();
        double ratio = Report.imbalance(rows);
        // the region's own code, not the rest of the function that opened it (other regions, the calls after it)
        int[] body = RegionTable.bodyNodes(rows);
        int blamed = topIn(BlameKind.BARRIER.metric(), body.length > 0 ? body : new int[] {region});
        boolean ownCode = blamed >= 0 && Names.isConstruct(tree.frameOf(blamed)) && contains(body, blamed);
        String site = Names.site(rows.getFirst().callSiteFile(), rows.getFirst().callSiteLine());
        String who = ratio >= 1.1
                ? String.format(
                        Locale.ROOT, "; thread %s works %.1fx the mean", threadName.apply(heaviest.thread()), ratio)
                : "";
        String text = null;
        for (boolean callers :
                new boolean[] {true, false}) { // without the callers when the sentence would run too long
            String opener = callers
                    ? Names.call(tree, p.lines(), region)
                    : Names.function(tree.frameOf(region).name());
            String where = "the parallel region " + (site == null ? "" : "at " + site + " ") + "opened in "
                    + opener.replace("()", "");
            String blamee = blamed < 0
                    ? ""
                    : ownCode
                            ? ownCodeText(blamed)
                            : callers
                                    ? Names.call(tree, p.lines(), blamed)
                                    : Names.function(tree.frameOf(blamed).name());
            String cause = blamed < 0 ? "" : (ratio >= 1.1 ? ": imbalance, caused by " : ": blamed on ") + blamee;
            text = String.format(
                    Locale.ROOT,
                    "%s of thread time is barrier waiting in %s%s%s",
                    Report.pct(barrier, total),
                    where,
                    who,
                    cause);
            if (text.length() <= Finding.MAX_LENGTH) break;
        }
        out.add(new Finding(barrier, text, blamed >= 0 ? blamed : body.length > 0 ? body[0] : region));
    }

    /** The region body's own code, with the line of it that ran longest (where its threads' work mostly was). */
    private String ownCodeText(int body) {
        int line = 0;
        long most = 0;
        for (LineTable.Row r : p.lines().of(body)) {
            if (r.exclusiveNs() > most) {
                most = r.exclusiveNs();
                line = r.line();
            }
        }
        String at = Names.site(tree.frameOf(body).file(), line);
        return "the region's own code (not its calls)" + (line > 0 && at != null ? ", busiest at " + at : "");
    }

    /**
     * {@code critical `shared_table` at q.c:156: waiters lose 5.2 s (12% of thread time), blamed on crit_body()
     * (holder)}.
     */
    private void mutex(MutexTable.Row m, List<Finding> out) {
        if (!worth(m.waitedNs())) return;
        int holder = holder(m);
        out.add(new Finding(
                m.waitedNs(),
                String.format(
                        Locale.ROOT,
                        "%s: waiters lose %s (%s of thread time), blamed on %s%s",
                        Names.mutex(m),
                        Report.time(m.waitedNs()),
                        Report.pct(m.waitedNs(), total),
                        holderText(holder),
                        handedOverText(m)),
                holder));
    }

    /**
     * When more than half of the waiting for the only mutex of its kind happened while nobody held it: the holder's
     * code is not what to shorten, the hand-over to threads that wait for a CPU is.
     */
    private String handedOverText(MutexTable.Row m) {
        if (!onlyOfItsKind(m)) return "";
        long handedOver = 0;
        for (BlameKind k : BlameKind.values())
            if (k.metric().equals(m.metric()))
                handedOver = p.blame("handed_over_ns." + k.name().toLowerCase(Locale.ROOT));
        if (2 * handedOver <= m.waitedNs()) return "";
        return "; but " + Report.pct(handedOver, m.waitedNs())
                + " of it while nobody held it, the next holder not yet running: more threads than free cores "
                + "(run fewer, or keep other work off their cores)";
    }

    /** Whether no other mutex shares the mutex's blame metric (its kind's totals are then its own). */
    private boolean onlyOfItsKind(MutexTable.Row m) {
        return p.mutexes().rows().stream()
                        .filter(r -> r.metric().equals(m.metric()))
                        .count()
                == 1;
    }

    /** The holder's code; a release site (holds too short to sample) by the function and the line it released at. */
    private String holderText(int holder) {
        if (holder < 0) return "no known holder (<unattributed>)";
        String releasedAt = tree.frameOf(holder).holdReleaseSite();
        int parent = tree.parent(holder);
        if (releasedAt != null && parent != CallingContextTree.ROOT)
            return Names.call(tree, p.lines(), parent) + ", holding it until " + releasedAt + " (holder)";
        if (tree.frameOf(holder).name().startsWith("<")) return "no known holder (<unattributed>)";
        return Names.call(tree, p.lines(), holder) + " (holder)";
    }

    /**
     * The program's code the mutex's waiting is blamed on: its blame summed by the user function the blamed
     * contexts are in (a holder that spends its hold in clock_gettime and in its own loop is one holder), when the
     * mutex is the only one of its kind (the blame metric is per kind); else the context most of it went to, named
     * by its user function. -1 if unattributed.
     */
    private int holder(MutexTable.Row m) {
        if (m.topNode() < 0) return -1;
        int top = onlyOfItsKind(m) ? topIn(m.metric(), null) : -1;
        return top >= 0 ? top : Names.ownCode(tree, m.topNode());
    }

    /**
     * Idle threads: the initial thread runs serial code outside any parallel region (the blamed
     * context is not inside one), or there is too little parallel work (too few tasks).
     */
    private void idle(List<Finding> out) {
        long waited = p.blame("waited_ns.idle");
        if (!worth(waited)) return;
        int blamed = topIn(BlameKind.IDLE.metric(), null);
        String text;
        if (blamed >= 0 && tree.frameOf(blamed).kind() != FrameKind.PLACEHOLDER && inMpi(blamed)) {
            text = String.format(
                    Locale.ROOT,
                    "%s of thread time is idle while the initial thread waits in MPI calls outside parallel regions, "
                            + "mostly %s in %s: MPI time, not serial code to parallelize",
                    Report.pct(waited, total),
                    mpiCall(blamed),
                    Names.call(tree, p.lines(), blamed));
        } else if (blamed >= 0 && tree.frameOf(blamed).kind() != FrameKind.PLACEHOLDER && !insideConstruct(blamed)) {
            text = String.format(
                    Locale.ROOT,
                    "%s of thread time is idle while serial code runs outside parallel regions, mostly %s: "
                            + "parallelize it or shorten it",
                    Report.pct(waited, total),
                    Names.call(tree, p.lines(), blamed));
        } else {
            text = String.format(
                    Locale.ROOT,
                    "%s of thread time is idle (threads with no work: too few tasks or iterations), " + "blamed on %s",
                    Report.pct(waited, total),
                    blamed < 0 ? "nothing running" : Names.call(tree, p.lines(), blamed));
        }
        out.add(new Finding(waited, text, blamed));
    }

    /**
     * Whether the serial code at {@code node} spent most of its time in MPI calls (TeaLeaf's tea_finalize, which is
     * MPI_Finalize): to parallelize it is no advice.
     */
    private boolean inMpi(int node) {
        Metric mpi = tree.metrics().find(StandardMetrics.TIME_NAME + ".mpi");
        if (mpi == null) return false;
        return 2 * tree.inclusiveByNode(mpi.index())[node] >= tree.inclusiveByNode(StandardMetrics.TIME)[node];
    }

    /**
     * The MPI call under {@code node} that most of the idle blame fell in ({@code MPI_Finalize}): the call frame
     * nearest {@code node} on each blamed path. "MPI calls" when the paths name none.
     */
    private String mpiCall(int node) {
        Metric blame = tree.metrics().find(BlameKind.IDLE.metric());
        Map<String, Long> byCall = new HashMap<>();
        if (blame != null)
            tree.forEachExclusive(blame.index(), (n, thread, value) -> {
                String call = null;
                for (int a = n; a > 0; a = tree.parent(a)) {
                    if (a == node) {
                        if (call != null) byCall.merge(call, value, Long::sum);
                        return;
                    }
                    String name = tree.frameOf(a).name();
                    if (name.regionMatches(true, 0, "MPI_", 0, 4)) call = mpiName(name);
                }
            });
        return byCall.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElse("MPI calls");
    }

    /** An MPI call as C names it: Fortran's {@code mpi_finalize_} is {@code MPI_Finalize}. */
    private static String mpiName(String frame) {
        String call = frame.substring(4).replaceAll("_+$", "").toLowerCase(Locale.ROOT);
        return call.isEmpty() ? frame : "MPI_" + Character.toUpperCase(call.charAt(0)) + call.substring(1);
    }

    /** MPI ranks waiting for a late rank (a job profile merged from the ranks' profiles). */
    private void mpi(List<Finding> out) {
        long waited = p.blame("waited_ns.mpi");
        if (!worth(waited)) return;
        int blamed = topIn(BlameKind.MPI.metric(), null);
        String text = String.format(
                Locale.ROOT,
                "%s of thread time is MPI ranks waiting for a late rank, mostly for %s: even out the ranks' work or"
                        + " overlap it with the communication",
                Report.pct(waited, total),
                blamed < 0 ? "nothing recorded" : Names.call(tree, p.lines(), blamed));
        out.add(new Finding(waited, text, blamed));
    }

    /**
     * Task granularity: task waiting (taskwait, taskgroup) plus time in the runtime's own task code (task_scheduling
     * inside tasks), against the mean work a task does: small tasks are told to grow, large ones whose waiting is for
     * the longest of them are told to start those first or split them (see {@link TaskGranularity}).
     */
    private void tasks(List<Finding> out) {
        long tasks = p.counters().tasks();
        if (tasks == 0) return;
        TaskWork work = new TaskWork(
                exclusive(OmpState.WORK_SERIAL, OmpState.WORK_PARALLEL, OmpState.WORK_REDUCTION),
                exclusive(OmpState.TASK_SCHEDULING),
                nearestTasks());
        long[] inTask = workInTasks(work);
        TaskGranularity g = new TaskGranularity(
                tasks, inTask[0], inTask[1], total(OmpState.WAIT_TASKWAIT), total(OmpState.WAIT_TASKGROUP));
        if (!worth(g.costNs())) return;
        TopTask top = topTaskConstruct(work);
        int site = top.node();
        int body = site < 0 ? -1 : constructBody(site, work);
        out.add(new Finding(
                g.costNs(),
                g.text(
                        Report.pct(g.costNs(), total),
                        site < 0
                                ? null
                                : (top.constructs() > 1 ? "most time in " : "")
                                        + tree.frameOf(site).name(),
                        site < 0
                                ? null
                                : Names.function(tree.frameOf(ownCaller(site)).name()),
                        body < 0 ? null : Names.function(tree.frameOf(body).name())),
                site));
    }

    /**
     * The user function the contexts of {@code site}'s construct run, by their time: a recursion's tasks spread over
     * many contexts of a few samples each, and the heaviest one alone may hold only the runtime's code (creating tasks,
     * finishing a returned one) while the others show the body.
     */
    private int constructBody(int site, TaskWork w) {
        long[] time = tree.inclusiveByNode(StandardMetrics.TIME);
        Map<Integer, Long> byFrame = new java.util.HashMap<>();
        Map<Integer, Integer> nodeOf = new java.util.HashMap<>();
        for (int n = 1; n < tree.size(); n++) {
            if (w.nearestTask()[n] != n || tree.frame(n) != tree.frame(site)) continue;
            int body = taskBody(n, time);
            if (body < 0) continue;
            byFrame.merge(tree.frame(body), time[n], Long::sum);
            nodeOf.putIfAbsent(tree.frame(body), body);
        }
        return byFrame.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .map(e -> nodeOf.get(e.getKey()))
                .orElse(-1);
    }

    /**
     * The user function a task construct runs: down its heaviest children, the first that is the program's own code
     * (not the compiler's outlined body, the runtime or a system library); -1 if none before another construct.
     */
    private int taskBody(int construct, long[] time) {
        int n = construct;
        for (int depth = 0; depth < 8; depth++) {
            int next = -1;
            for (int c : tree.children(n)) if (next < 0 || time[c] > time[next]) next = c;
            if (next < 0 || isConstruct(tree.frameOf(next))) return -1;
            Frame f = tree.frameOf(next);
            boolean user = f.kind() == FrameKind.USER || f.kind() == FrameKind.INLINED;
            if (user && !Names.isSystem(f) && !Names.isConstruct(f)) return next;
            n = next;
        }
        return -1;
    }

    /**
     * Regions too small for their overhead: many instances of a few tens of microseconds, much
     * of it waiting. Reported instead of the region's barrier finding (the same time).
     */
    private boolean tooSmall(int region, List<RegionTable.Row> rows, List<Finding> out) {
        int instances = rows.getFirst().instances();
        long work = 0, waiting = 0, busiest = 0;
        for (RegionTable.Row r : rows) {
            long all = 0;
            for (RegionTable.Column c : RegionTable.Column.values()) all += r.ns(c);
            work += r.ns(RegionTable.Column.WORK);
            waiting += all - r.ns(RegionTable.Column.WORK);
            busiest = Math.max(busiest, r.ns(RegionTable.Column.WORK));
        }
        long perInstance = instances == 0 ? 0 : busiest / instances;
        if (instances < SMALL_REGION_INSTANCES
                || perInstance > SMALL_REGION_NS
                || !worth(waiting)
                || waiting < work / 10) return false;
        String site = Names.site(rows.getFirst().callSiteFile(), rows.getFirst().callSiteLine());
        out.add(new Finding(
                waiting,
                String.format(
                        Locale.ROOT,
                        "%s of thread time is overhead and waiting in the parallel region %sopened "
                                + "%,d times in %s, %s of work each: too small; merge it with its neighbours or run "
                                + "it serially (if clause)",
                        Report.pct(waiting, total),
                        site == null ? "" : "at " + site + " ",
                        instances,
                        Names.function(tree.frameOf(region).name()),
                        perInstance < 1000 ? "under 1 us" : Report.time(perInstance)),
                region));
        return true;
    }

    private long total(OmpState state) {
        Metric m = tree.metrics().find(state.metricName());
        return m == null ? 0 : tree.total(m.index());
    }

    /**
     * Each node's own work and runtime task code (the state task_scheduling: the profile's states already tell the
     * runtime's task code from the tasks' own), and the nearest task construct at or above it (-1: in no task).
     */
    private record TaskWork(long[] work, long[] scheduling, int[] nearestTask) {}

    /** Work in explicit tasks, the runtime's task code they call included, and that part. */
    private static long[] workInTasks(TaskWork w) {
        long inWork = 0, inScheduling = 0;
        for (int n = 0; n < w.nearestTask().length; n++) {
            if (w.nearestTask()[n] < 0) continue;
            inWork += w.work()[n] + w.scheduling()[n];
            inScheduling += w.scheduling()[n];
        }
        return new long[] {inWork, inScheduling};
    }

    /** For each node, the nearest task construct at or above it; -1 outside every task. */
    private int[] nearestTasks() {
        int[] nearest = new int[tree.size()];
        java.util.ArrayDeque<int[]> stack = new java.util.ArrayDeque<>(); // {node, the nearest task above it}
        stack.push(new int[] {CallingContextTree.ROOT, -1});
        while (!stack.isEmpty()) {
            int[] e = stack.pop();
            int n = e[0];
            nearest[n] = n != CallingContextTree.ROOT && isTask(tree.frameOf(n)) ? n : e[1];
            for (int c : tree.children(n)) stack.push(new int[] {c, nearest[n]});
        }
        return nearest;
    }

    /** Each node's own time (not its children's) in the given states. */
    private long[] exclusive(OmpState... states) {
        long[] time = new long[tree.size()];
        for (OmpState st : states) {
            Metric m = tree.metrics().find(st.metricName());
            if (m == null) continue;
            long[] v = tree.exclusiveByNode(m.index(), t -> true);
            for (int n = 0; n < time.length; n++) time[n] += v[n];
        }
        return time;
    }

    /**
     * The task construct whose tasks do the most work of their own (the runtime's task code they call included), not
     * counting the tasks they create in turn nor their waiting (a single producer's outer task holds all the others
     * inclusively, has one instance, and waits in taskwait), -1 if none. A construct's work is summed over its
     * contexts (a recursive task's, at every depth); its heaviest context stands for it.
     */
    private TopTask topTaskConstruct(TaskWork w) {
        long[] own = new long[tree.size()];
        for (int n = 0; n < own.length; n++)
            if (w.nearestTask()[n] >= 0) own[w.nearestTask()[n]] += w.work()[n] + w.scheduling()[n];
        Map<Integer, Long> byConstruct = new java.util.HashMap<>();
        for (int n = 1; n < own.length; n++)
            if (w.nearestTask()[n] == n) byConstruct.merge(tree.frame(n), own[n], Long::sum);
        int best = -1;
        for (int n = 1; n < own.length; n++) {
            if (w.nearestTask()[n] != n) continue;
            if (best < 0) best = n;
            long a = byConstruct.get(tree.frame(n)), b = byConstruct.get(tree.frame(best));
            if (a > b || (a == b && tree.frame(n) == tree.frame(best) && own[n] > own[best])) best = n;
        }
        return new TopTask(best, byConstruct.size());
    }

    /** The heaviest task construct's heaviest context (-1 if none), and how many task constructs the profile has. */
    private record TopTask(int node, int constructs) {}

    private static boolean isTask(Frame f) {
        return f.function() != null
                && (f.function().startsWith("task at ") || f.function().startsWith("task in "));
    }

    /** Whether node lies inside a parallel region or a task (a construct frame above it). */
    private boolean insideConstruct(int node) {
        for (int n = node; n != CallingContextTree.ROOT; n = tree.parent(n))
            if (isConstruct(tree.frameOf(n))) return true;
        return false;
    }

    /** The nearest frame above a construct that is not itself a construct: the function that opened it. */
    private int ownCaller(int construct) {
        int n = tree.parent(construct);
        while (n != CallingContextTree.ROOT
                && tree.parent(n) != CallingContextTree.ROOT
                && isConstruct(tree.frameOf(n))) n = tree.parent(n);
        return n == CallingContextTree.ROOT ? construct : n;
    }

    private static boolean isConstruct(Frame f) {
        String fn = f.function();
        return fn != null && !fn.startsWith("<") && (fn.contains(" at ") || fn.contains(" in "));
    }

    private void unattributed(List<Finding> out) {
        long un = 0, waited = 0;
        for (BlameKind k : BlameKind.values()) {
            un += p.blame("unattributed_ns." + k.name().toLowerCase(Locale.ROOT));
            waited += p.blame("waited_ns." + k.name().toLowerCase(Locale.ROOT));
        }
        if (!worth(un)) return;
        out.add(new Finding(
                un,
                String.format(
                        Locale.ROOT,
                        "%s of the waiting (%s) found nobody to blame: no thread worked at the time, "
                                + "or a mutex's holder was not recorded; it is under <unattributed>",
                        Report.pct(un, waited),
                        Report.time(un)),
                tree.findChild(CallingContextTree.ROOT, tree.frames().find(org.ompprof.calltree.Frame.UNATTRIBUTED))));
    }

    /**
     * The program's context with the most of {@code metric} within {@code region}'s subtree (anywhere for -1), each
     * context's blame counted at its own code (a leaf in a system library or the runtime at the user function that
     * called into it, see {@link Names#ownCode}); -1 if none.
     */
    /** The context most of the metric is charged to, under any of {@code scope} (null: anywhere); -1 if none. */
    private int topIn(String metric, int[] scope) {
        Metric m = tree.metrics().find(metric);
        if (m == null) return -1;
        long[] byNode = new long[tree.size()];
        tree.forEachExclusive(m.index(), (node, thread, value) -> {
            if (scope == null || underAny(node, scope)) byNode[Names.ownCode(tree, node)] += value;
        });
        int best = -1;
        for (int n = 1; n < byNode.length; n++) {
            if (byNode[n] > 0 && (best < 0 || byNode[n] > byNode[best])) best = n;
        }
        return best < 0 ? best : spreadOver(best, byNode);
    }

    /**
     * An inlined function that holds less than half the value of the function it was inlined into (its caller's
     * context, itself and the rest of what that called) gives way to it, up the inlined chain: a hot function's
     * inlined operators split its blame (PENNANT: "imbalance, caused by operator+()", "double2::operator=()" for
     * Hydro::calcWork).
     */
    private int spreadOver(int best, long[] byNode) {
        long[] inclusive = new long[byNode.length];
        for (int n = 1; n < byNode.length; n++) {
            if (byNode[n] == 0) continue;
            for (int a = n; a > 0; a = tree.parent(a)) inclusive[a] += byNode[n];
        }
        int n = best;
        while (tree.frameOf(n).kind() == FrameKind.INLINED) {
            int parent = tree.parent(n);
            if (parent <= 0 || 2 * inclusive[n] >= inclusive[parent]) break;
            n = parent;
        }
        return n;
    }

    private boolean underAny(int node, int[] ancestors) {
        for (int n = node; n != CallingContextTree.ROOT; n = tree.parent(n)) if (contains(ancestors, n)) return true;
        return false;
    }

    private static boolean contains(int[] sorted, int node) {
        return java.util.Arrays.binarySearch(sorted, node) >= 0;
    }
}
