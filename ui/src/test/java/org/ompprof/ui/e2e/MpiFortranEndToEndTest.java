package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPI time of a Fortran program (mpi_hybrid.f90, {@code use mpi}, gfortran) under a real mpirun.
 * Open MPI's Fortran bindings call PMPI_Allreduce directly, past the C MPI_Allreduce: the
 * companion library wraps the Fortran symbols (mpi_allreduce_) themselves.
 */
class MpiFortranEndToEndTest {
    private static final int STEPS = 6, UNIT_MS = 40;
    private static final double SAMPLE_SLACK_MS = 2.0 * STEPS;

    @TempDir
    static Path work;

    static String mpirunOut;

    @BeforeAll
    static void record() throws Exception {
        mpirunOut = MpiJob.record(work, CPrograms.mpiFortran("mpi_hybrid"), STEPS, UNIT_MS);
    }

    /**
     * Each rank's sampled time.mpi.allreduce is its own measure of its wait, within 15% (plus a sample a call); on a
     * loaded machine the ranks also wait for each other to be scheduled, so their order is not asserted.
     */
    @Test
    void fortranAllreduceTimeIsTheMpiState() throws Exception {
        double[] allreduce = new double[2];
        for (int rank = 0; rank < 2; rank++) {
            Path profile = work.resolve("run.rank-" + rank + ".ompprof");
            allreduce[rank] = BlameTotals.totalMs(work, profile, "time.mpi.allreduce", null);
            double waited = ownWaitMs(rank);
            assertEquals(
                    waited,
                    allreduce[rank],
                    0.15 * waited + SAMPLE_SLACK_MS,
                    "rank " + rank + ": sampled against its own clock");
            Ompprof.Result info = Ompprof.read("info", profile.toString());
            assertTrue(info.out().contains("mpi.allreduce " + STEPS + " calls"), info.out());
        }
        assertTrue(
                ownWaitMs(0) > 0.5 * STEPS * UNIT_MS,
                "rank 0 waited about a unit a step by its own clock: " + mpirunOut);
    }

    private static double ownWaitMs(int rank) {
        return MpiJob.ownMs(mpirunOut, "mpi_hybrid_f", rank, "waited");
    }
}
