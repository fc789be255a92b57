package org.ompprof.calltree.build;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.eclipse.collections.impl.map.mutable.primitive.LongLongHashMap;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;
import org.ompprof.blame.BlameBehind;
import org.ompprof.blame.BlameKind;
import org.ompprof.blame.Charges;
import org.ompprof.blame.MutexHolds;
import org.ompprof.blame.ReleaseSites;
import org.ompprof.blame.WindowedBlame;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.MetricStorage;
import org.ompprof.calltree.MetricUnit;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.sampler.record.MutexEvent;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.stitch.StitchedSample;
import org.ompprof.unwinder.stitch.Stitcher;
import org.ompprof.unwinder.symbols.SourceFrame;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * Passes what blame needs of each sample (thread, time, weight, wait class, wait id, region and
 * tree node) to the blame calculation as the profile is built, samples in time order, so that
 * only a window of them is held (see {@link WindowedBlame}), on a thread of its own when the
 * build has one ({@link BlameBehind}); then charges the waiting to the tree as the blame metrics,
 * {@code <unattributed>} included.
 */
final class BlameStage {
    private static final int THREAD_INITIAL = 1;

    /** Per wait id: where it was first acquired (a codeptr_ra). */
    private final LongLongHashMap firstSite = new LongLongHashMap();

    private final BlameBehind blame;
    private final StageClock clock;

    /**
     * Reads the recording's mutex events; samples follow. {@code sites} places waiting on holds nobody sampled. The
     * time spent here goes to {@code clock}'s blame stage.
     */
    BlameStage(Recording recording, ReleaseSites sites, long windowNs, StageClock clock, ExecutorService thread) {
        this.clock = clock;
        Stage was = clock.enter(Stage.BLAME);
        this.blame = new BlameBehind(
                new WindowedBlame(holds(recording), sites, initialThreads(recording), windowNs), thread, this::timed);
        clock.enter(was);
    }

    /** The next sample in time order (all threads merged). */
    void sample(StitchedSample s, int node) {
        blame.add(s.threadSeq(), s.timeNs(), s.weightNs(), waitClass(s), s.waitId(), s.regionId(), node);
        clock.count(Stage.BLAME, 1);
    }

    /** Blame's work in the building thread's calls (a batch of samples), timed as blame's. */
    private void timed(Runnable work) {
        Stage was = clock.enter(Stage.BLAME);
        try {
            work.run();
        } finally {
            clock.enter(was);
        }
    }

    /** No sample follows: blame may charge its last windows while the build does other work. */
    void end() {
        blame.end();
    }

    /**
     * To its team, a thread inside an MPI call runs the program's own code (OMPT says it works):
     * the team's idle and barrier waiting meanwhile is the call's, and a job profile charges the
     * call's own waiting on to the rank it waited for. So does a thread creating or scheduling
     * tasks (OMPT says it works too): threads waiting for the tasks it makes wait for that code.
     */
    static WaitClass waitClass(StitchedSample s) {
        boolean idle = s.kind() == StitchedSample.Kind.IDLE;
        if (idle) return WaitClass.IDLE;
        OmpState state = OmpState.of(s.state());
        return state.isMpi() || state == OmpState.TASK_SCHEDULING ? WaitClass.WORK : state.waitClass();
    }

    /**
     * What blame found: totals per kind (waited, charged, unattributed, outside the hold) and the mutexes waited for.
     */
    record Result(Map<String, Long> totals, MutexTable mutexes) {}

    /** Charges the blame to {@code tree}. */
    Result apply(Recording recording, CallingContextTree tree, Stitcher stitcher, Symbolizer symbolizer) {
        Stage was = clock.enter(Stage.BLAME);
        try {
            return charge(recording, tree, stitcher, symbolizer);
        } finally {
            clock.enter(was);
        }
    }

    private Result charge(Recording recording, CallingContextTree tree, Stitcher stitcher, Symbolizer symbolizer) {
        Charges charges = blame.finish();
        int[] metric = registerMetrics(tree);
        int parent = tree.metrics().require(BlameKind.MUTEX_METRIC).index();
        int unattributed = -1;
        for (int i = 0; i < charges.size(); i++) {
            int node = charges.node(i); // region latency: the waiter's own context, the barrier

            if (node == Charges.UNATTRIBUTED) {
                if (unattributed < 0)
                    unattributed =
                            tree.child(CallingContextTree.ROOT, tree.frames().intern(Frame.UNATTRIBUTED));
                node = unattributed;
            }
            BlameKind kind = charges.kind(i);
            tree.add(node, charges.thread(i), metric[kind.ordinal()], charges.valueNs(i));
            if (kind.isMutex()) tree.add(node, charges.thread(i), parent, charges.valueNs(i));
        }
        return new Result(totals(charges), mutexes(charges, recording, stitcher, symbolizer, unattributed));
    }

    /** Each mutex with its name, the line where it was first acquired and where its waiting went, most waited first. */
    private MutexTable mutexes(
            Charges charges, Recording recording, Stitcher stitcher, Symbolizer symbolizer, int unattributedNode) {
        List<MutexTable.Row> rows = new ArrayList<>();
        for (Charges.Mutex m : charges.mutexes()) {
            SourceFrame site = SourceLines.of(stitcher, symbolizer, firstSite.getIfAbsent(m.waitId(), 0), clock);
            int top = m.topNode() == Charges.UNATTRIBUTED ? unattributedNode : m.topNode();
            rows.add(new MutexTable.Row(
                    MutexNames.of(recording, stitcher, m.waitId()),
                    m.kind().metric(),
                    site == null ? null : site.file(),
                    site == null ? 0 : Math.max(0, site.line()),
                    m.waitedNs(),
                    top,
                    m.topNodeNs()));
        }
        rows.sort(Comparator.comparingLong(r -> -r.waitedNs()));
        return new MutexTable(rows);
    }

    private MutexHolds holds(Recording recording) {
        MutexHolds.Builder b = new MutexHolds.Builder();
        recording.records(type -> type == Wire.REC_MUTEX).forEach(r -> {
            MutexEvent m = (MutexEvent) r;
            switch (m.event()) {
                case Wire.MUTEX_ACQUIRE -> {
                    b.acquire(m.threadSeq(), m.waitId(), m.timeNs(), m.kind());
                    if (!firstSite.containsKey(m.waitId())) firstSite.put(m.waitId(), m.codeptrRa());
                }
                case Wire.MUTEX_ACQUIRED -> b.acquired(m.threadSeq(), m.waitId(), m.timeNs());
                case Wire.MUTEX_RELEASED -> b.released(m.threadSeq(), m.waitId(), m.timeNs());
                default -> {} // nested re-acquisitions keep the outer hold; init and destroy hold nothing
            }
        });
        return b.build();
    }

    private static IntHashSet initialThreads(Recording recording) {
        IntHashSet out = new IntHashSet();
        for (ThreadInfo t : recording.threads()) if (t.threadType() == THREAD_INITIAL) out.add(t.seq());
        return out;
    }

    private static int[] registerMetrics(CallingContextTree tree) {
        var metrics = tree.metrics();
        metrics.register(
                BlameKind.MUTEX_METRIC,
                MetricUnit.NANOSECONDS,
                "waiting for locks, critical, atomic and ordered, charged to the holder's context",
                MetricStorage.SPARSE,
                null);
        int[] index = new int[BlameKind.values().length];
        for (BlameKind k : BlameKind.values()) {
            if (!k.isInProcess()) continue; // a job's, charged when its ranks' profiles are merged
            index[k.ordinal()] = metrics.register(
                            k.metric(),
                            MetricUnit.NANOSECONDS,
                            description(k),
                            MetricStorage.SPARSE,
                            k.isMutex() ? BlameKind.MUTEX_METRIC : null)
                    .index();
        }
        return index;
    }

    private static String description(BlameKind k) {
        return switch (k) {
            case IDLE -> "idleness of other threads, charged to what the initial thread was running";
            case BARRIER ->
                "barrier waiting of other threads, shared among the team's working contexts (while nobody works: "
                        + "the barrier's own latency, at the barrier)";
            default -> k.metric().substring(k.metric().indexOf('.') + 1) + " waiting charged to the holder's context";
        };
    }

    private static Map<String, Long> totals(Charges c) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (BlameKind k : BlameKind.values()) {
            if (!k.isInProcess()) continue;
            String name = k.name().toLowerCase(Locale.ROOT);
            m.put("waited_ns." + name, c.waitedNs(k));
            m.put("charged_ns." + name, c.chargedNs(k));
            m.put("unattributed_ns." + name, c.unattributedNs(k));
            m.put("region_latency_ns." + name, c.regionLatencyNs(k));
            m.put("outside_hold_ns." + name, c.outsideHoldNs(k));
            m.put("handed_over_ns." + name, c.handedOverNs(k));
        }
        return m;
    }
}
