package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;

/**
 * A real MPI + OpenMP job under Open MPI's mpirun, each rank recorded by its own ompprof
 * (mpi_hybrid.c: rank r computes (1 + r) units a step, then all meet in MPI_Allreduce).
 */
class MpiEndToEndTest {
    private static final int STEPS = 8, UNIT_MS = 40;

    @TempDir static Path work;
    static String mpirunOut;

    @BeforeAll
    static void record() throws Exception {
        Path program = CPrograms.mpi("mpi_hybrid");
        List<String> mpirun = new ArrayList<>(List.of("mpirun", "--oversubscribe", "-np", "2", "-x", "OMP_NUM_THREADS=1"));
        if ("root".equals(System.getProperty("user.name"))) mpirun.add(1, "--allow-run-as-root");
        Process p = Ompprof.start(work, Map.of(), mpirun, List.of("record", "-o", "run.ompprof", "--", program.toString(),
                Integer.toString(STEPS), Integer.toString(UNIT_MS)));
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "mpirun did not finish");
        Ompprof.Result r = Ompprof.result(work, p.exitValue());
        assertEquals(0, r.status(), r.out() + r.err());
        mpirunOut = r.out();
    }

    /** Never two writers on one file: run.ompprof becomes run.rank-0.ompprof and run.rank-1.ompprof. */
    @Test
    void eachRankWritesItsOwnProfileWithItsPlaceInTheJob() throws Exception {
        assertTrue(mpirunOut.contains("mpi_hybrid: 2 ranks"), mpirunOut);
        assertTrue(Files.notExists(work.resolve("run.ompprof")));
        for (int rank = 0; rank < 2; rank++) {
            try (Recording r = Recording.open(work.resolve("run.rank-" + rank + ".ompprof"))) {
                assertEquals(Integer.toString(rank), r.metadata().get(Metadata.MPI_RANK, "?"));
                assertEquals("2", r.metadata().get(Metadata.MPI_WORLD_SIZE, "?"));
                assertTrue(r.metadata().get(Metadata.JOB_ID).isPresent(), r.metadata().toString());
            }
            Ompprof.Result info = Ompprof.run(work, Map.of(), "info", work.resolve("run.rank-" + rank + ".ompprof").toString());
            assertTrue(info.out().contains("mpi        rank " + rank + " of 2, job "), info.out());
        }
    }

    /** Rank 1 computes twice what rank 0 does: main;compute holds about twice the time (1.5 to 2.6, sampled). */
    @Test
    void eachRanksProfileHoldsItsOwnWork() throws Exception {
        double[] compute = new double[2];
        for (int rank = 0; rank < 2; rank++) {
            compute[rank] = BlameTotals.totalMs(work, work.resolve("run.rank-" + rank + ".ompprof"), "time", "compute");
            assertTrue(compute[rank] > 0, "compute in rank " + rank);
        }
        double ratio = compute[1] / compute[0];
        assertTrue(ratio > 1.5 && ratio < 2.6, "rank 1 / rank 0 compute time " + compute[1] + " / " + compute[0]);
    }
}
