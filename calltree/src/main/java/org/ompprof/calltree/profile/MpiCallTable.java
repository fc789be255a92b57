package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.ompprof.blame.MpiCall;
import org.ompprof.sampler.device.ClockFit;
import org.ompprof.sampler.device.ClockFitter;
import org.ompprof.sampler.device.ClockPair;
import org.ompprof.sampler.record.MpiEvent;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * The MPI calls of the ranks in a profile, each on its rank's own clock, and the measures of
 * each rank's clock against rank 0's: what a job profile needs to tell who made whom wait. Empty
 * for a program that is not an MPI rank.
 */
public record MpiCallTable(List<MpiCall> calls, List<ClockMeasure> clocks) {
    /**
     * This rank's clock read {@code localNs} when rank 0's read {@code rank0Ns}, to within half of
     * {@code roundTripNs}; taken as MPI_Init returned or as MPI_Finalize began ({@code call}).
     */
    public record ClockMeasure(int rank, int call, long localNs, long rank0Ns, long roundTripNs) {}

    private static final MpiCallTable EMPTY = new MpiCallTable(List.of(), List.of());

    public MpiCallTable {
        calls = List.copyOf(calls);
        clocks = List.copyOf(clocks);
    }

    public static MpiCallTable empty() {
        return EMPTY;
    }

    public boolean isEmpty() {
        return calls.isEmpty() && clocks.isEmpty();
    }

    /** The calls of rank {@code rank}'s recording, an enter and its exit on a thread making one call. */
    public static MpiCallTable of(Stream<WireRecord> records, int rank) {
        if (rank < 0) return EMPTY;
        List<MpiCall> calls = new ArrayList<>();
        List<ClockMeasure> clocks = new ArrayList<>();
        IntObjectHashMap<MpiEvent> open = new IntObjectHashMap<>();
        records.forEach(r -> {
            if (!(r instanceof MpiEvent m)) return;
            if (m.isClock()) clocks.add(new ClockMeasure(rank, kind(m), m.timeNs(), m.bytes(), m.seq()));
            else if (m.isEnter()) open.put(m.threadSeq(), m);
            else {
                MpiEvent e = open.remove(m.threadSeq());
                if (e != null && e.call() == m.call() && m.timeNs() >= e.timeNs()) calls.add(call(rank, e, m));
            }
        });
        return new MpiCallTable(calls, clocks);
    }

    private static MpiCall call(int rank, MpiEvent enter, MpiEvent exit) {
        int peer = exit.peer() >= 0 ? exit.peer() : enter.peer(); // a receive's exit names the actual source
        return new MpiCall(
                rank,
                enter.threadSeq(),
                kind(enter),
                enter.comm(),
                (int) Math.min(Integer.MAX_VALUE, enter.commSize()),
                enter.seq(),
                peer,
                enter.tag(),
                enter.timeNs(),
                exit.timeNs(),
                exit.request() != 0 ? exit.request() : enter.request());
    }

    private static int kind(MpiEvent m) {
        return m.call() >= 0 && m.call() < Wire.MPI_CALLS ? m.call() : Wire.MPI_CALL_OTHER;
    }

    /** The same calls with thread t numbered {@code t + threadOffset} (when profiles are merged). */
    public MpiCallTable remapped(int threadOffset) {
        if (threadOffset == 0) return this;
        return new MpiCallTable(
                calls.stream().map(c -> c.withThread(c.thread() + threadOffset)).toList(), clocks);
    }

    /**
     * Each rank's clock mapped onto rank 0's, fitted from its measures as device clocks are (an
     * offset from one measure, offset and drift from two); identity for rank 0 and for a rank
     * without measures (one node: one clock).
     */
    public Map<Integer, ClockFit> rankClocks() {
        Map<Integer, List<ClockPair>> pairs = new HashMap<>();
        for (ClockMeasure m : clocks)
            pairs.computeIfAbsent(m.rank(), r -> new ArrayList<>()).add(new ClockPair(m.rank0Ns(), m.localNs()));
        Map<Integer, ClockFit> out = new HashMap<>();
        pairs.forEach((rank, p) -> out.put(rank, rank == 0 ? ClockFit.identity() : ClockFitter.fit(p)));
        return out;
    }

    /** The calls with their times on rank 0's clock, by the ranks' fits ({@link #rankClocks}). */
    public List<MpiCall> onRank0Clock(Map<Integer, ClockFit> fits) {
        return calls.stream()
                .map(c -> {
                    ClockFit f = fits.getOrDefault(c.rank(), ClockFit.identity());
                    return c.withTimes(f.toHost(c.enterNs()), f.toHost(c.exitNs()));
                })
                .toList();
    }
}
