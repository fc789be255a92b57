package org.ompprof.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.wire.Wire;

class CrossRankBlameTest {
    private static final long MS = 1_000_000;
    private static final int WORK = OmpState.WORK_SERIAL.code();
    private static final int ALLREDUCE = OmpState.mpi(Wire.MPI_CALL_ALLREDUCE).code();

    /** Node ids of the synthetic job: rank r's compute and its allreduce context. */
    private static int compute(int rank) {
        return 10 + rank;
    }

    private static int inMpi(int rank) {
        return 100 + rank;
    }

    /** A job of ranks ranks, one thread each (thread = rank), sampled every ms: steps of compute, then allreduce. */
    private record Job(List<MpiCall> calls, JobSamples samples, long expectedWaitNs) {}

    private static Job job(long seed, int ranks, int steps, boolean withSamplesOfAllRanks) {
        Random rnd = new Random(seed);
        List<MpiCall> calls = new ArrayList<>();
        JobSamples.Builder samples = new JobSamples.Builder();
        long[] clock = new long[ranks];
        long expected = 0;
        long start = 1_000 * MS;
        for (int s = 0; s < steps; s++) {
            long[] enter = new long[ranks];
            long last = 0;
            for (int r = 0; r < ranks; r++) {
                enter[r] = start + (1 + r) * (5 + rnd.nextInt(10)) * MS + rnd.nextInt(1000) * 1000L;
                last = Math.max(last, enter[r]);
            }
            long exit = last + 200_000; // the reduction itself: 0.2 ms
            for (int r = 0; r < ranks; r++) {
                calls.add(new MpiCall(r, r, Wire.MPI_CALL_ALLREDUCE, 1, ranks, s, -1, -1, enter[r], exit, 0));
                expected += last - enter[r];
                if (clock[r] == 0) clock[r] = start;
                while (clock[r] + MS <= exit) {
                    long t = clock[r] + MS;
                    boolean mpi = t > enter[r];
                    samples.add(r, r, t, MS, mpi ? inMpi(r) : compute(r), mpi ? ALLREDUCE : WORK);
                    clock[r] = t;
                }
            }
            start = exit;
        }
        return new Job(calls, samples.build(), expected);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void waitingGoesToTheLateRanksComputeAndIsConserved(long seed) {
        int ranks = 2 + (int) (seed % 3);
        Job job = job(seed, ranks, 20, true);
        Charges c = CrossRankBlame.charge(job.calls(), job.samples());
        long waited = c.waitedNs(BlameKind.MPI);
        assertEquals(waited, c.chargedNs(BlameKind.MPI), "conservation: every ns of waiting charged once");
        long toCompute = 0, toOthers = 0;
        for (int i = 0; i < c.size(); i++) {
            if (c.isRegionLatency(i) || c.node(i) == Charges.UNATTRIBUTED) continue;
            if (c.node(i) >= 10 && c.node(i) < 100 && c.thread(i) == c.node(i) - 10) toCompute += c.valueNs(i);
            else toOthers += c.valueNs(i);
        }
        assertEquals(0, c.unattributedNs(BlameKind.MPI), c.toString());
        assertEquals(0, toOthers, "only compute of the late ranks is charged");
        // samples every ms: the waiting seen differs from the true one by under a sample per rank and step
        assertTrue(
                Math.abs(toCompute - job.expectedWaitNs()) <= 20L * ranks * MS,
                toCompute + " vs " + job.expectedWaitNs());
        assertTrue(toCompute > 0);
    }

    @Test
    void theLateRankIsChargedNotTheEarlyOne() {
        // rank 0 enters at 10 ms, rank 1 at 30 ms: rank 0's 20 ms of waiting are rank 1's compute
        List<MpiCall> calls = List.of(
                new MpiCall(0, 0, Wire.MPI_CALL_BARRIER, 1, 2, 0, -1, -1, 10 * MS, 31 * MS, 0),
                new MpiCall(1, 1, Wire.MPI_CALL_BARRIER, 1, 2, 0, -1, -1, 30 * MS, 31 * MS, 0));
        JobSamples.Builder b = new JobSamples.Builder();
        for (long t = 1; t <= 31; t++) {
            b.add(0, 0, t * MS, MS, t > 10 ? inMpi(0) : compute(0), t > 10 ? ALLREDUCE : WORK);
            b.add(1, 1, t * MS, MS, t > 30 ? inMpi(1) : compute(1), t > 30 ? ALLREDUCE : WORK);
        }
        Charges c = CrossRankBlame.charge(calls, b.build());
        assertEquals(20 * MS, c.waitedNs(BlameKind.MPI)); // rank 0 from 10 to 30 ms
        assertEquals(22 * MS, c.waitedNs(BlameKind.MPI) + c.regionLatencyNs(BlameKind.MPI), "all 22 MPI samples");
        long onRank1 = 0;
        for (int i = 0; i < c.size(); i++)
            if (!c.isRegionLatency(i) && c.node(i) == compute(1)) onRank1 += c.valueNs(i);
        assertEquals(20 * MS, onRank1);
        assertEquals(2 * MS, c.regionLatencyNs(BlameKind.MPI), "the last ms on each rank: the call's own, no waiting");
    }

    @Test
    void aCollectiveWithMembersMissingFindsNobody() {
        Job job = job(11, 3, 5, true);
        List<MpiCall> someRanks =
                job.calls().stream().filter(c -> c.rank() != 2).toList();
        Charges c = CrossRankBlame.charge(someRanks, job.samples());
        // ranks 0 and 1 wait in collectives whose third member is not there: unattributed; rank 2's calls,
        // left out, are no waiting
        assertTrue(c.waitedNs(BlameKind.MPI) > 0);
        assertEquals(c.waitedNs(BlameKind.MPI), c.unattributedNs(BlameKind.MPI));
        assertTrue(c.regionLatencyNs(BlameKind.MPI) > 0);
    }

    @Test
    void bcastNonRootsWaitForTheRoot() {
        // root 1 comes at 20 ms; rank 0 (non-root) waits 15 ms for it; rank 2 came after the root: waits for nobody
        List<MpiCall> calls = List.of(
                new MpiCall(0, 0, Wire.MPI_CALL_BCAST, 1, 3, 0, 1, -1, 5 * MS, 21 * MS, 0),
                new MpiCall(1, 1, Wire.MPI_CALL_BCAST, 1, 3, 0, 1, -1, 20 * MS, 21 * MS, 0),
                new MpiCall(2, 2, Wire.MPI_CALL_BCAST, 1, 3, 0, 1, -1, 21 * MS, 22 * MS, 0));
        int bcast = OmpState.mpi(Wire.MPI_CALL_BCAST).code();
        JobSamples.Builder b = new JobSamples.Builder();
        for (long t = 1; t <= 22; t++) {
            for (int r = 0; r < 3; r++) {
                boolean in = t * MS > calls.get(r).enterNs()
                        && t * MS <= calls.get(r).exitNs();
                b.add(r, r, t * MS, MS, in ? inMpi(r) : compute(r), in ? bcast : WORK);
            }
        }
        Charges c = CrossRankBlame.charge(calls, b.build());
        long onRoot = 0;
        for (int i = 0; i < c.size(); i++) if (!c.isRegionLatency(i) && c.node(i) == compute(1)) onRoot += c.valueNs(i);
        assertEquals(15 * MS, onRoot);
        assertEquals(c.waitedNs(BlameKind.MPI), c.chargedNs(BlameKind.MPI));
    }

    @Test
    void aReceiverWaitsForItsLateSender() {
        // rank 1 posts an Irecv at 2 ms and waits from 3 ms; rank 0 computes until 25 ms, then sends.
        // A blocking Recv with any tag cannot be matched: its waiting is unattributed.
        List<MpiCall> calls = List.of(
                new MpiCall(1, 1, Wire.MPI_CALL_IRECV, 1, 2, 0, -1, 7, 2 * MS, 2 * MS + 1000, 77),
                new MpiCall(1, 1, Wire.MPI_CALL_WAIT, 0, 0, 0, 0, -1, 3 * MS, 26 * MS, 77),
                new MpiCall(0, 0, Wire.MPI_CALL_SEND, 1, 2, 0, 1, 7, 25 * MS, 26 * MS, 0),
                new MpiCall(1, 1, Wire.MPI_CALL_RECV, 1, 2, 0, 0, -1, 30 * MS, 40 * MS, 0),
                new MpiCall(0, 0, Wire.MPI_CALL_SEND, 1, 2, 0, 1, 9, 39 * MS, 40 * MS, 0));
        int wait = OmpState.mpi(Wire.MPI_CALL_WAIT).code(),
                recv = OmpState.mpi(Wire.MPI_CALL_RECV).code();
        JobSamples.Builder b = new JobSamples.Builder();
        for (long t = 1; t <= 40; t++) {
            boolean sending = t > 25 && t <= 26 || t > 39;
            b.add(0, 0, t * MS, MS, sending ? inMpi(0) : compute(0), sending ? ALLREDUCE : WORK);
            int state = t > 3 && t <= 26 ? wait : t > 30 ? recv : WORK;
            b.add(1, 1, t * MS, MS, state == WORK ? compute(1) : inMpi(1), state);
        }
        Charges c = CrossRankBlame.charge(calls, b.build());
        long onSender = 0;
        for (int i = 0; i < c.size(); i++)
            if (!c.isRegionLatency(i) && c.node(i) == compute(0)) onSender += c.valueNs(i);
        assertEquals(22 * MS, onSender, "rank 1 waited from 3 to 25 ms for rank 0's send");
        assertEquals(10 * MS, c.unattributedNs(BlameKind.MPI), "the any-tag receive's 10 ms");
        assertEquals(c.waitedNs(BlameKind.MPI), c.chargedNs(BlameKind.MPI));
    }
}
