package org.ompprof.calltree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.blame.BlameKind;
import org.ompprof.blame.MpiCall;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * Cross-rank blame through the merge, on synthetic two-rank jobs whose answer is known: rank r
 * computes (1 + r) units a step, then both meet in MPI_Allreduce, so rank 0 waits a unit a step
 * for rank 1. Rank 1's clock is off rank 0's by an injected offset and drift (ranks on different
 * nodes), which the clock measures taken at MPI_Init and MPI_Finalize let the merge undo.
 */
class JobBlameTest {
    private static final long MS = 1_000_000;
    private static final int STEPS = 10;
    private static final int WORK = OmpState.WORK_SERIAL.code();
    private static final int ALLREDUCE = OmpState.mpi(Wire.MPI_CALL_ALLREDUCE).code();

    /** Rank 1's clock as a function of rank 0's (the true time). */
    private record Clock(long offsetNs, double driftPpm) {
        long local(long trueNs) {
            return trueNs + offsetNs + Math.round(trueNs * driftPpm * 1e-6);
        }
    }

    private record Rank(Profile profile, Map<String, String> metadata) {}

    /** Rank {@code rank}'s profile: one thread (thread 1), sampled every ms, its times on {@code clock}. */
    private static Rank rank(int rank, long unitNs, Clock clock, boolean measured, long seed) {
        Random rnd = new Random(seed);
        CallingContextTree tree = CallingContextTree.create();
        int main = tree.frames().intern(Frame.of(FrameKind.USER, "app", "main", "app.c", 1));
        int compute =
                tree.path(new int[] {main, tree.frames().intern(Frame.of(FrameKind.USER, "app", "compute", "app.c", 9))
                });
        int exchange = tree.path(new int[] {
            main, tree.frames().intern(Frame.of(FrameKind.USER, "app", "exchange", "app.c", 20))
        });
        Timeline.Builder timeline = new Timeline.Builder(1);
        List<MpiCall> calls = new ArrayList<>();
        long start = 10_000 * MS, t = start;
        for (int s = 0; s < STEPS; s++) {
            long enter0 = start + unitNs + rnd.nextInt(100_000), enter1 = start + 2 * unitNs + rnd.nextInt(100_000);
            long enter = rank == 0 ? enter0 : enter1, exit = Math.max(enter0, enter1) + 300_000;
            calls.add(new MpiCall(
                    rank, 1, Wire.MPI_CALL_ALLREDUCE, 1, 2, s, -1, -1, clock.local(enter), clock.local(exit), 0));
            for (; t + MS <= exit; t += MS) {
                boolean in = t + MS > enter;
                timeline.add(clock.local(t + MS), in ? exchange : compute, in ? ALLREDUCE : WORK, MS);
                tree.addSampleAt(in ? exchange : compute, 1, in ? ALLREDUCE : WORK, MS);
            }
            start = exit;
        }
        List<MpiCallTable.ClockMeasure> clocks = new ArrayList<>();
        if (measured && rank != 0) {
            for (long at : new long[] {5_000 * MS, start + 100 * MS})
                clocks.add(new MpiCallTable.ClockMeasure(1, Wire.MPI_CALL_INIT, clock.local(at), at, 20_000));
        }
        Profile p = new Profile(
                tree,
                List.of(timeline.build()),
                StitchCounters.fromMap(Map.of()),
                Map.of(),
                new RegionTable(List.of()),
                new MutexTable(List.of()),
                LineTable.EMPTY,
                timeline.size(),
                DeviceTable.empty(),
                new MpiCallTable(calls, clocks));
        return new Rank(p, Map.of(Metadata.MPI_RANK, Integer.toString(rank)));
    }

    private static Profile merge(List<Rank> ranks) {
        ProfileMerger merger = new ProfileMerger();
        for (int i = 0; i < ranks.size(); i++)
            merger.add(ranks.get(i).profile(), ranks.get(i).metadata(), 2, "r" + i);
        return merger.result();
    }

    /** mpi_blame charged to rank 1's compute (thread 1 of the second input: 3) and in all. */
    private static long[] blame(Profile job) {
        CallingContextTree tree = job.tree();
        Metric m = tree.metrics().find(BlameKind.MPI.metric());
        long[] out = new long[2];
        tree.forEachExclusive(m.index(), (node, thread, value) -> {
            out[1] += value;
            if (thread == 3 && "compute".equals(tree.frameOf(node).function())) out[0] += value;
        });
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void injectedOffsetAndDriftAreUndoneByTheMeasuredClocks(long seed) {
        Random rnd = new Random(seed);
        long unit = (20 + rnd.nextInt(20)) * MS;
        Clock skewed = new Clock((rnd.nextBoolean() ? 1 : -1) * (200 + rnd.nextInt(5000)) * MS, rnd.nextInt(200) - 100);
        Profile job = merge(List.of(rank(0, unit, new Clock(0, 0), true, seed), rank(1, unit, skewed, true, seed)));
        long[] b = blame(job);
        long expected = STEPS * unit; // rank 0 waits a unit a step, give or take 0.1 ms
        assertEquals(expected, b[0], STEPS * 2 * MS, "rank 1's compute carries rank 0's waiting");
        assertTrue(b[0] >= 0.95 * b[1], b[0] + " of " + b[1]);
        assertEquals(job.blame("waited_ns.mpi"), b[1], "the totals are the tree's");
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6})
    void withoutMeasuresAnOffsetClockMisplacesTheWaiting(long seed) {
        long unit = 30 * MS;
        Clock skewed = new Clock(-700 * MS, 0); // rank 1 seems to enter each allreduce long before rank 0
        Profile job = merge(List.of(rank(0, unit, new Clock(0, 0), false, seed), rank(1, unit, skewed, false, seed)));
        long[] b = blame(job);
        assertTrue(b[0] < 0.2 * STEPS * unit, "unaligned clocks cannot find rank 1 late: " + b[0]);
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 8})
    void mergingMergedJobsChargesTheSame(long seed) {
        long unit = 25 * MS;
        Clock skewed = new Clock(300 * MS, 40);
        Rank r0 = rank(0, unit, new Clock(0, 0), true, seed), r1 = rank(1, unit, skewed, true, seed);
        Profile flat = merge(List.of(r0, r1));
        ProfileMerger first = new ProfileMerger();
        first.add(r0.profile(), r0.metadata(), 2, "r0");
        Profile partial = first.result();
        assertEquals(partial.blame("waited_ns.mpi"), partial.blame("unattributed_ns.mpi"), "rank 1 is missing");
        ProfileMerger outer = new ProfileMerger();
        outer.add(partial.withTimelines(r0.profile().timelines()), first.metadata(), 2, "part");
        outer.add(r1.profile(), r1.metadata(), 2, "r1");
        Profile nested = outer.result();
        assertEquals(blame(flat)[0], blame(nested)[0]);
        assertEquals(blame(flat)[1], blame(nested)[1]);
        assertEquals(flat.blame("waited_ns.mpi"), nested.blame("waited_ns.mpi"));
    }
}
