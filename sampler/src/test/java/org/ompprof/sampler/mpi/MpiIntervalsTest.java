package org.ompprof.sampler.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.record.MpiEvent;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

class MpiIntervalsTest {
    private static MpiEvent event(int thread, long t, int call, int endpoint) {
        return new MpiEvent(thread, t, 1, 8, 0, 0, -1, -1, -1, 2, 0, call, endpoint, 0);
    }

    @Test
    void aSampleInsideACallOfAWorkingThreadTakesTheCallsState() {
        MpiIntervals m = MpiIntervals.of(Stream.of(
                event(1, 100, Wire.MPI_CALL_ALLREDUCE, Wire.MPI_ENTER),
                event(1, 200, Wire.MPI_CALL_ALLREDUCE, Wire.MPI_EXIT),
                event(1, 300, Wire.MPI_CALL_SEND, Wire.MPI_ENTER)));
        int serial = OmpState.WORK_SERIAL.code();
        assertEquals(serial, m.stateAt(1, 99, serial));
        assertEquals(OmpState.MPI_ALLREDUCE.code(), m.stateAt(1, 100, serial));
        assertEquals(OmpState.MPI_ALLREDUCE.code(), m.stateAt(1, 199, OmpState.WORK_PARALLEL.code()));
        assertEquals(serial, m.stateAt(1, 200, serial), "the exit ends the call");
        assertEquals(
                OmpState.MPI_SEND.code(),
                m.stateAt(1, Long.MAX_VALUE - 1, serial),
                "a call never left lasts to the end");
        assertEquals(serial, m.stateAt(2, 150, serial), "another thread's calls are not this one's");
        assertEquals(OmpState.IDLE.code(), m.stateAt(1, 150, OmpState.IDLE.code()), "OpenMP waiting states stay");
        assertEquals(100, m.insideNs(1, Wire.MPI_CALL_ALLREDUCE, 1000));
    }

    @Test
    void droppedRecordsEndWhatIsOpenAndBackwardTimesAreIgnored() {
        MpiIntervals m = MpiIntervals.of(Stream.of(
                event(1, 100, Wire.MPI_CALL_BARRIER, Wire.MPI_ENTER),
                event(1, 300, Wire.MPI_CALL_BCAST, Wire.MPI_ENTER), // the barrier's exit was dropped
                event(1, 250, Wire.MPI_CALL_BCAST, Wire.MPI_EXIT), // back in time: ignored
                event(1, 400, Wire.MPI_CALL_BCAST, Wire.MPI_EXIT),
                event(1, 500, Wire.MPI_CALL_SEND, Wire.MPI_EXIT)));
        assertEquals(Wire.MPI_CALL_BARRIER, m.callAt(1, 299));
        assertEquals(Wire.MPI_CALL_BCAST, m.callAt(1, 300));
        assertEquals(-1, m.callAt(1, 450), "an exit without its enter opens nothing");
        assertTrue(MpiIntervals.of(Stream.empty()).isEmpty());
    }

    /** Random calls on a few threads, looked up at random times, against a scan of the calls. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void lookUpsAgreeWithAScan(long seed) {
        Random rnd = new Random(seed);
        List<WireRecord> records = new ArrayList<>();
        List<long[]> calls = new ArrayList<>(); // thread, start, end, call
        for (int thread = 1; thread <= 3; thread++) {
            long t = rnd.nextInt(100);
            for (int i = rnd.nextInt(50); i > 0; i--) {
                long start = t + rnd.nextInt(3), end = start + rnd.nextInt(1, 20);
                int call = rnd.nextInt(Wire.MPI_CALLS);
                records.add(event(thread, start, call, Wire.MPI_ENTER));
                records.add(event(thread, end, call, Wire.MPI_EXIT));
                calls.add(new long[] {thread, start, end, call});
                t = end + rnd.nextInt(3);
            }
        }
        MpiIntervals m = MpiIntervals.of(records.stream());
        for (int i = 0; i < 2000; i++) {
            int thread = rnd.nextInt(1, 4);
            long t = rnd.nextInt(1200);
            int expected = -1;
            for (long[] c : calls) if (c[0] == thread && c[1] <= t && t < c[2]) expected = (int) c[3];
            assertEquals(expected, m.callAt(thread, t), "thread " + thread + " at " + t);
        }
    }
}
