package org.ompprof.calltree.merge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.ompprof.blame.BlameKind;
import org.ompprof.blame.Charges;
import org.ompprof.blame.CrossRankBlame;
import org.ompprof.blame.JobSamples;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.MetricStorage;
import org.ompprof.calltree.MetricUnit;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.device.ClockFit;

/**
 * Cross-rank blame in a job profile: the ranks' samples and calls put on rank 0's clock, charged
 * by {@link CrossRankBlame} and written into the merged tree as {@code mpi_blame}. What an input
 * already held of it (itself a merge of some ranks) is taken out first: the charges depend on
 * all the ranks together, so they are computed afresh over every rank at each merge, which keeps
 * merging associative.
 */
final class JobBlame {
    private JobBlame() {}

    /** Charges the job's MPI waiting into {@code tree}; returns the totals (waited_ns.mpi, ...). */
    static Map<String, Long> apply(
            CallingContextTree tree, MpiCallTable mpi, List<Timeline> timelines, IntUnaryOperator rankOfThread) {
        int metric = tree.metrics()
                .register(
                        BlameKind.MPI.metric(),
                        MetricUnit.NANOSECONDS,
                        "waiting of MPI ranks for a rank that came late to a collective, charged to what the late"
                                + " rank ran meanwhile (the call's own time stays in the call)",
                        MetricStorage.SPARSE,
                        null)
                .index();
        clear(tree, metric);
        Map<Integer, ClockFit> clocks = mpi.rankClocks();
        JobSamples.Builder samples = new JobSamples.Builder();
        for (Timeline t : timelines) {
            int rank = rankOfThread.applyAsInt(t.thread());
            if (rank < 0) continue;
            ClockFit clock = clocks.getOrDefault(rank, ClockFit.identity());
            for (int i = 0; i < t.size(); i++)
                samples.add(rank, t.thread(), clock.toHost(t.timeNs(i)), t.weightNs(i), t.node(i), t.state(i));
        }
        Charges c = CrossRankBlame.charge(mpi.onRank0Clock(clocks), samples.build());
        int unattributed = -1;
        for (int i = 0; i < c.size(); i++) {
            int node = c.node(i);
            if (node == Charges.UNATTRIBUTED) {
                if (unattributed < 0)
                    unattributed =
                            tree.child(CallingContextTree.ROOT, tree.frames().intern(Frame.UNATTRIBUTED));
                node = unattributed;
            }
            tree.add(node, c.thread(i), metric, c.valueNs(i));
        }
        return Map.of(
                key("waited_ns"), c.waitedNs(BlameKind.MPI),
                key("charged_ns"), c.chargedNs(BlameKind.MPI),
                key("unattributed_ns"), c.unattributedNs(BlameKind.MPI),
                key("region_latency_ns"), c.regionLatencyNs(BlameKind.MPI));
    }

    static String key(String total) {
        return total + "." + BlameKind.MPI.name().toLowerCase(Locale.ROOT);
    }

    private static void clear(CallingContextTree tree, int metric) {
        List<long[]> held = new ArrayList<>();
        tree.forEachExclusive(metric, (node, thread, value) -> held.add(new long[] {node, thread, value}));
        for (long[] h : held) tree.add((int) h[0], (int) h[1], metric, -h[2]);
    }
}
