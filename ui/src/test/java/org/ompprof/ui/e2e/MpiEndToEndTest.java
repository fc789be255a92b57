package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;

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
            Ompprof.Result info = Ompprof.read(
                    "info", work.resolve("run.rank-" + rank + ".ompprof").toString());
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

    /**
     * The job profile (the ranks' profiles merged) keeps the ranks apart: report's per-rank table gives each
     * rank's compute as its own clock measured it (within 15%, plus a sample a call) and its MPI time (allreduce
     * and finalize) as its own profile has it, names rank 1
     * as the one that computes the most, with the imbalance across ranks the clocks give (within 0.15), and
     * the thread table names threads rank.thread.
     */
    @Test
    void theJobProfileSetsTheRanksSideBySide() throws Exception {
        Ompprof.Result merge = Ompprof.run(
                work,
                Map.of(),
                "merge",
                "-o",
                "job.ompprof",
                work.resolve("run.rank-0.ompprof").toString(),
                work.resolve("run.rank-1.ompprof").toString());
        assertEquals(0, merge.status(), merge.err());
        Ompprof.Result report = Ompprof.read(
                "report", "--thread-table", work.resolve("job.ompprof").toString());
        assertEquals(0, report.status(), report.err());
        String out = report.out();
        assertTrue(out.contains("ranks (2 MPI ranks; threads below are rank.thread)"), out);
        double[] compute = new double[2];
        for (int rank = 0; rank < 2; rank++) {
            java.util.regex.Matcher row = java.util.regex.Pattern.compile(
                            "(?m)^\\s+" + rank + "\\s+1\\s+(-|\\S+ \\S+)\\s+(-|\\S+ \\S+)\\s+")
                    .matcher(out);
            assertTrue(row.find(), "rank " + rank + "'s row in\n" + out);
            compute[rank] = millis(row.group(1));
            double own = programsOwnMs(rank, "computed");
            assertEquals(own, compute[rank], 0.15 * own + SAMPLE_SLACK_MS, "rank " + rank + "'s compute\n" + out);
            double mpi = BlameTotals.totalMs(work, work.resolve("run.rank-" + rank + ".ompprof"), "time.mpi", null);
            assertEquals(
                    mpi,
                    millis(row.group(2)),
                    0.1 + 0.005 * mpi, // report prints three digits: "2.40 s" is 2.395 to 2.405 s
                    "rank " + rank + "'s MPI, as its own profile\n" + out);
        }
        double own0 = programsOwnMs(0, "computed"), own1 = programsOwnMs(1, "computed");
        double imbalance = Math.max(own0, own1) / ((own0 + own1) / 2);
        java.util.regex.Matcher line = java.util.regex.Pattern.compile(
                        "imbalance across ranks (\\d+\\.\\d+): rank (\\d) computes the most")
                .matcher(out);
        assertTrue(line.find(), out);
        assertEquals(imbalance, Double.parseDouble(line.group(1)), 0.15, out);
        assertEquals(own1 > own0 ? "1" : "0", line.group(2), out);
        assertTrue(out.contains("     0.1 ") && out.contains("     1.1 "), "threads as rank.thread\n" + out);
        assertTrue(out.contains("\n       0.1 ") && out.contains("\n       1.1 "), "region rows too\n" + out);
        // info lists the merged runs by rank and host, each with its own duration (the merge has none of its own)
        String info =
                Ompprof.read("info", work.resolve("job.ompprof").toString()).out();
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        for (int rank = 0; rank < 2; rank++)
            assertTrue(
                    Pattern.compile("run.rank-" + rank + ".ompprof \\(rank " + rank + " on " + Pattern.quote(host)
                                    + "\\): .*, \\d+\\.\\d\\d s, exit status 0")
                            .matcher(info)
                            .find(),
                    "rank " + rank + " in\n" + info);
        assertFalse(info.contains("\nduration "), info);
        assertTrue(info.contains("; rank.thread), samples per OpenMP state"), info);
        assertTrue(Pattern.compile("(?m)^ +0\\.1 +\\d+ initial").matcher(info).find(), "rank 0's thread 1\n" + info);
        assertTrue(Pattern.compile("(?m)^ +1\\.1 +\\d+ initial").matcher(info).find(), "rank 1's thread 1\n" + info);
    }

    /**
     * Who makes the ranks wait: in the job profile, rank 0's waiting in MPI_Allreduce is charged to what rank 1
     * ran meanwhile (mpi_blame). At least 80% of mpi_blame lies on rank 1's compute(), and rank 1's share comes to
     * rank 0's own measure of its waiting within 15% (plus a sample a call). Each rank's profile holds its calls,
     * and rank 1's two measures of its clock against rank 0's (MPI_Init, MPI_Finalize): on one node one clock, so
     * each reads rank 0's time within half its round trip.
     */
    @Test
    void theLateRankIsBlamedForTheWaiting() throws Exception {
        Path job = work.resolve("blamed.ompprof");
        Ompprof.Result merge = Ompprof.run(
                work,
                Map.of(),
                "merge",
                "-o",
                job.toString(),
                work.resolve("run.rank-0.ompprof").toString(),
                work.resolve("run.rank-1.ompprof").toString());
        assertEquals(0, merge.status(), merge.err());
        long offset;
        try (Recording r = Recording.open(job)) {
            offset = r.metadata().getLong("input.1.thread_offset", -1);
        }
        assertTrue(offset > 0);
        double all = BlameTotals.totalMs(work, job, "mpi_blame", null), onRank1 = 0;
        for (int t = 0; t < 4; t++) onRank1 += BlameTotals.totalMs(work, job, "mpi_blame", (int) offset + t, "compute");
        assertTrue(onRank1 >= 0.8 * all, onRank1 + " of " + all + " ms of mpi_blame on rank 1's compute");
        double waited = programsOwnWaitMs(0);
        assertEquals(waited, onRank1, 0.15 * waited + SAMPLE_SLACK_MS, "rank 0's waiting by its own clock");
        for (int rank = 0; rank < 2; rank++) {
            try (Recording r = Recording.open(work.resolve("run.rank-" + rank + ".ompprof"))) {
                MpiCallTable mpi = ProfileReader.withoutTimelines(r).mpi();
                assertTrue(mpi.calls().stream()
                                .filter(c -> c.call() == Wire.MPI_CALL_ALLREDUCE)
                                .count()
                        >= STEPS);
                assertEquals(rank == 0 ? 0 : 2, mpi.clocks().size(), "rank " + rank + "'s clock measures");
                for (MpiCallTable.ClockMeasure m : mpi.clocks())
                    assertTrue(Math.abs(m.localNs() - m.rank0Ns()) <= m.roundTripNs() / 2 + 1, m.toString());
            }
        }
    }

    /** report's times ("320.1 ms", "1.20 s", "250 us", "-" for none) in milliseconds. */
    private static double millis(String time) {
        if (time.equals("-")) return 0;
        String[] v = time.split(" ");
        double x = Double.parseDouble(v[0]);
        return switch (v[1]) {
            case "s" -> x * 1000;
            case "ms" -> x;
            case "us" -> x / 1000;
            default -> throw new AssertionError("unit of " + time);
        };
    }

    /** info and report name the MPI state as every other state is named. */
    @Test
    void infoAndReportNameTheMpiState() throws Exception {
        Path profile = work.resolve("run.rank-0.ompprof");
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(info.out().contains("mpi.allreduce " + STEPS + " calls"), info.out());
        Ompprof.Result report = Ompprof.read("report", profile.toString());
        assertEquals(0, report.status(), report.err());
        assertTrue(report.out().contains("mpi.allreduce"), report.out());
    }

    /**
     * A rank started without mpirun (a singleton, which forks its own daemon in MPI_Init) runs as unprofiled, and
     * MPI_Init's libraries, loaded and run in turn (PSM's constructors sleep), are announced as they are loaded: at
     * most 1% of samples unresolved (0-96 of about 600 when a library became known only at the next parallel region).
     * The worker's idling while the initial thread is in MPI is no serial code to parallelize.
     */
    @Test
    void aSingletonRankRunsAndItsMpiInitIsResolved() throws Exception {
        Path profile = work.resolve("singleton.ompprof");
        Ompprof.Result r =
                Ompprof.record(work, 2, profile, CPrograms.mpi("mpi_hybrid").toString(), "4", "20");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("mpi_hybrid: 1 ranks, 4 steps"), r.out());
        String info = Ompprof.read("info", profile.toString()).out();
        java.util.regex.Matcher stitched = Pattern.compile("stitched: (.*)").matcher(info);
        assertTrue(stitched.find(), info);
        long all = 0, unresolved = 0;
        for (String part : stitched.group(1).split(", ")) {
            long n = Long.parseLong(part.substring(0, part.indexOf(' ')).replace(",", ""));
            all += n;
            if (part.endsWith("unresolved")) unresolved += n;
        }
        assertTrue(all > 100 && unresolved <= 0.01 * all, unresolved + " of " + all + " unresolved\n" + info);
        // the worker idles outside regions only while the initial thread is in MPI (MPI_Init is before it starts; then
        // MPI_Allreduce, MPI_Finalize): an idle finding names MPI, never serial code to parallelize
        String report = Ompprof.read("report", profile.toString()).out();
        assertFalse(report.contains("parallelize it or shorten it"), report);
        if (report.contains("is idle while"))
            assertTrue(
                    report.contains("idle while the initial thread waits in MPI calls outside parallel regions, "
                            + "mostly MPI_"),
                    report);
    }
}
