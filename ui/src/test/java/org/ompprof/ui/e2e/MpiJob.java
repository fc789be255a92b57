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

/** Two ranks of an MPI + OpenMP known-answer program recorded for real under Open MPI's mpirun. */
final class MpiJob {
    private MpiJob() {}

    /**
     * Runs {@code mpirun -np 2 ompprof record -o run.ompprof -- PROGRAM STEPS UNIT_MS} in work (one OpenMP thread a
     * rank, oversubscribed, as root where the tests run as root); returns what the ranks printed.
     */
    static String record(Path work, Path program, int steps, int unitMs) throws Exception {
        List<String> mpirun =
                new ArrayList<>(List.of("mpirun", "--oversubscribe", "-np", "2", "-x", "OMP_NUM_THREADS=1"));
        if ("root".equals(System.getProperty("user.name"))) mpirun.add(1, "--allow-run-as-root");
        List<String> record = List.of(
                "record",
                "-o",
                "run.ompprof",
                "--",
                program.toString(),
                Integer.toString(steps),
                Integer.toString(unitMs));
        Process p = Ompprof.start(work, Map.of(), mpirun, record);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "mpirun did not finish");
        Ompprof.Result r = Ompprof.result(work, p.exitValue());
        assertEquals(0, r.status(), r.out() + r.err());
        return r.out();
    }

    /**
     * "NAME: rank R waited X ms in MPI_Allreduce, computed Y ms", as rank R printed it: X for "waited", Y for
     * "computed".
     */
    static double ownMs(String out, String name, int rank, String what) {
        Matcher m = Pattern.compile(name + ": rank " + rank + " .*\\b" + what + " ([0-9.]+) ms")
                .matcher(out);
        assertTrue(m.find(), out);
        return Double.parseDouble(m.group(1));
    }
}
