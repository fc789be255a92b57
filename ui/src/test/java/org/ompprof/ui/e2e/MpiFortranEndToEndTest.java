package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        Path program = CPrograms.mpiFortran("mpi_hybrid");
        List<String> mpirun =
                new ArrayList<>(List.of("mpirun", "--oversubscribe", "-np", "2", "-x", "OMP_NUM_THREADS=1"));
        if ("root".equals(System.getProperty("user.name"))) mpirun.add(1, "--allow-run-as-root");
        Process p = Ompprof.start(
                work,
                Map.of(),
                mpirun,
                List.of(
                        "record",
                        "-o",
                        "run.ompprof",
                        "--",
                        program.toString(),
                        Integer.toString(STEPS),
                        Integer.toString(UNIT_MS)));
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "mpirun did not finish");
        Ompprof.Result r = Ompprof.result(work, p.exitValue());
        assertEquals(0, r.status(), r.out() + r.err());
        mpirunOut = r.out();
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
            Ompprof.Result info = Ompprof.run(work, Map.of(), "info", profile.toString());
            assertTrue(info.out().contains("mpi.allreduce " + STEPS + " calls"), info.out());
        }
        assertTrue(
                ownWaitMs(0) > 0.5 * STEPS * UNIT_MS,
                "rank 0 waited about a unit a step by its own clock: " + mpirunOut);
    }

    private static double ownWaitMs(int rank) {
        Matcher m = Pattern.compile("mpi_hybrid_f: rank " + rank + " waited ([0-9.]+) ms")
                .matcher(mpirunOut);
        assertTrue(m.find(), mpirunOut);
        return Double.parseDouble(m.group(1));
    }
}
