package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;

/**
 * A real MPI + OpenMP job under Open MPI's mpirun, each rank recorded by its own ompprof
 * (mpi_hybrid.c: rank r computes (1 + r) units a step, then all meet in MPI_Allreduce; each rank prints its own
 * clock's compute and wait times, the known answers on a machine too busy for the units to hold).
 */
class MpiEndToEndTest {
    private static final int STEPS = 8, UNIT_MS = 40;
    /** One 1 ms sample per call and a few more, at the default 1000 Hz. */
    private static final double SAMPLE_SLACK_MS = 2.0 * STEPS;

    @TempDir
    static Path work;

    static String mpirunOut;

    @BeforeAll
    static void record() throws Exception {
        mpirunOut = MpiJob.record(work, CPrograms.mpi("mpi_hybrid"), STEPS, UNIT_MS);
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
                assertTrue(
                        r.metadata().get(Metadata.JOB_ID).isPresent(),
                        r.metadata().toString());
            }
            Ompprof.Result info = Ompprof.run(
                    work,
                    Map.of(),
                    "info",
                    work.resolve("run.rank-" + rank + ".ompprof").toString());
            assertTrue(info.out().contains("mpi        rank " + rank + " of 2, job "), info.out());
        }
    }

    /**
     * Rank 1 computes twice what rank 0 does: main;compute holds each rank's compute time as the rank's own clock
     * measured it, within 15% (plus a sample a call). On an idle machine that is 9 and 17 units; on a loaded one a
     * rank descheduled at the end of its spin computes longer, so the clock, not the units, is the known answer.
     */
    @Test
    void eachRanksProfileHoldsItsOwnWork() throws Exception {
        for (int rank = 0; rank < 2; rank++) {
            double compute =
                    BlameTotals.totalMs(work, work.resolve("run.rank-" + rank + ".ompprof"), "time", "compute");
            double own = programsOwnMs(rank, "computed");
            assertTrue(own >= (1 + (1 + rank) * STEPS) * UNIT_MS * 0.99, mpirunOut);
            assertEquals(
                    own,
                    compute,
                    0.15 * own + SAMPLE_SLACK_MS,
                    "rank " + rank + "'s compute time against its own clock");
        }
    }

    /**
     * Time inside MPI_Allreduce is its own state (libompprof-mpi.so, preloaded because the program
     * links libmpi). Rank 0 waits there about one unit a step for rank 1: the program measures its
     * own wait (on a busy machine more than STEPS x UNIT_MS, as rank 1's compute overruns), and the
     * profile's time.mpi.allreduce is that within 15% (plus a sample a call, for the calls' edges). Rank 1
     * arrives last and waits less: on an idle machine well under a millisecond (rank 0: 8 x 40 ms); on a
     * loaded one (2 cores, two ranks polling, two collectors, other work) each waits besides until the
     * other is scheduled again, so the known answer checked is each rank's own clock, not the idle
     * machine's figures. Exchange's samples are MPI time, not work.
     */
    @Test
    void timeInsideMpiAllreduceIsItsOwnState() throws Exception {
        double[] allreduce = new double[2];
        for (int rank = 0; rank < 2; rank++) {
            Path profile = work.resolve("run.rank-" + rank + ".ompprof");
            allreduce[rank] = BlameTotals.totalMs(work, profile, "time.mpi.allreduce", null);
            double inExchange = BlameTotals.totalMs(work, profile, "time.mpi.allreduce", "exchange");
            assertEquals(allreduce[rank], inExchange, 1e-9, "rank " + rank + "'s allreduce time is all under exchange");
            assertTrue(
                    BlameTotals.totalMs(work, profile, "time.mpi", null) >= allreduce[rank],
                    "time.mpi holds mpi.allreduce");
            double workInExchange = BlameTotals.totalMs(work, profile, "time.work_serial", "exchange")
                    + BlameTotals.totalMs(work, profile, "time.work_parallel", "exchange");
            assertTrue(
                    workInExchange < 0.05 * STEPS * UNIT_MS,
                    "rank " + rank + " counts " + workInExchange + " ms in exchange as work");
        }
        assertTrue(
                programsOwnWaitMs(0) > 0.5 * STEPS * UNIT_MS,
                "rank 0 waited about a unit a step by its own clock: " + mpirunOut);
        for (int rank = 0; rank < 2; rank++) {
            double waited = programsOwnWaitMs(rank);
            assertEquals(
                    waited,
                    allreduce[rank],
                    0.15 * waited + SAMPLE_SLACK_MS,
                    "rank " + rank + "'s sampled MPI_Allreduce time against the program's own measure");
        }
    }

    /** What rank {@code rank} printed: "mpi_hybrid: rank R waited X ms in MPI_Allreduce". */
    private static double programsOwnWaitMs(int rank) {
        return programsOwnMs(rank, "waited");
    }

    private static double programsOwnMs(int rank, String what) {
        return MpiJob.ownMs(mpirunOut, "mpi_hybrid", rank, what);
    }

    /** info and report name the MPI state as every other state is named. */
    @Test
    void infoAndReportNameTheMpiState() throws Exception {
        Path profile = work.resolve("run.rank-0.ompprof");
        Ompprof.Result info = Ompprof.run(work, Map.of(), "info", profile.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(info.out().contains("mpi.allreduce " + STEPS + " calls"), info.out());
        Ompprof.Result report = Ompprof.run(work, Map.of(), "report", profile.toString());
        assertEquals(0, report.status(), report.err());
        assertTrue(report.out().contains("mpi.allreduce"), report.out());
    }
}
