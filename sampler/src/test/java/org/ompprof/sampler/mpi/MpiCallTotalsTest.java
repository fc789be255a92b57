package org.ompprof.sampler.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.ompprof.sampler.wire.Wire;

class MpiCallTotalsTest {
    @Test
    void callsAndTimePerKindMostTimeFirst() {
        MpiCallTotals t = new MpiCallTotals();
        assertTrue(t.isEmpty());
        t.add(1, 0, Wire.MPI_CALL_BARRIER, Wire.MPI_ENTER);
        t.add(2, 0, Wire.MPI_CALL_ALLREDUCE, Wire.MPI_ENTER);
        t.add(1, 1_000_000, Wire.MPI_CALL_BARRIER, Wire.MPI_EXIT);
        t.add(2, 5_000_000, Wire.MPI_CALL_ALLREDUCE, Wire.MPI_EXIT);
        t.add(2, 6_000_000, Wire.MPI_CALL_ALLREDUCE, Wire.MPI_ENTER);
        t.add(2, 8_500_000, Wire.MPI_CALL_ALLREDUCE, Wire.MPI_EXIT);
        t.add(3, 9_000_000, Wire.MPI_CALL_SEND, Wire.MPI_EXIT); // no enter: not counted
        assertEquals("mpi.allreduce 2 calls 7.5 ms, mpi.barrier 1 call 1.0 ms", t.summary());
    }
}
