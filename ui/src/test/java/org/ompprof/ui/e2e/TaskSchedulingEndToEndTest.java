package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DynamicMessage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.export.Json;
import org.ompprof.calltree.export.PprofWriterTest;

/**
 * Task scheduling is a state of its own, named alike everywhere: task_create.c creates 1,000,000 tasks without a
 * cut-off on one thread and measures its creation loop. The loop's time is the runtime's task code but for the tasks
 * the runtime runs at once when the creating thread's queue is full ({@code <omp runtime>}, about a fifth of it) and
 * the agent's own creation callback ({@code <ompprof>}, about a fifth); sampled (100-300 samples) on two cores shared
 * with other work, the state held 49-84% of the loop in eleven runs (2 and 4 threads alternating). So it lies between
 * 35% of the loop and the loop (5% over for the samples at its edges): a list that missed __kmpc_omp_task would give
 * a sixth or less. The other threads wait at the single's end for the tasks it makes: their barrier waiting while the
 * loop runs, (threads - 1) x the loop, is blamed on its task code (0 if blame took the state for waiting). After the
 * loop every thread runs the queued tasks inside the barrier, where nobody's waiting is the task code's: on a loaded
 * machine that tail stretches to twice the loop, a quarter or less of all the barrier blame is the creation's, and a
 * bound on the whole (a quarter) failed two runs in eight under {@code under-load 2}. Of the waiting during the loop,
 * sixteen runs each on 2 and 4 threads under that load blamed 63-108% on the creation: at least 40%.
 * The 4-thread case runs twice as many threads as this machine's cores.
 */
class TaskSchedulingEndToEndTest {
    private static final String STATE = "task_scheduling";
    private static final Set<String> CREATION_ENTRIES = Set.of("__kmpc_omp_task", "__kmpc_omp_task_alloc");

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void taskSchedulingIsOneStateInInfoReportAndExports(int threads) throws Exception {
        Path profile = work.resolve("task_create-" + threads + ".ompprof");
        Ompprof.Result run = Ompprof.record(
                work, threads, profile, CPrograms.clang("task_create").toString(), "1000000");
        assertEquals(0, run.status(), run.err());
        Matcher ledger =
                Pattern.compile("ledger: task creation loop ([0-9.]+) ms").matcher(run.out());
        assertTrue(ledger.find(), run.out());
        double loopMs = Double.parseDouble(ledger.group(1));

        Ompprof.Result info = Ompprof.read("info", profile.toString());
        Ompprof.Result report = Ompprof.read("report", profile.toString());
        Matcher inInfo = Pattern.compile("time per state \\(as report, exports and the viewer count it\\): .*" + STATE
                        + " ([0-9.]+ m?s)")
                .matcher(info.out());
        Matcher inReport = Pattern.compile("\\n  " + STATE + " +([0-9.]+ m?s) ").matcher(report.out());
        assertTrue(inInfo.find(), info.out());
        assertTrue(inReport.find(), report.out());
        assertEquals(inReport.group(1), inInfo.group(1), "the same task_scheduling time in info and report");
        assertTrue(info.out().contains("counted as " + STATE), info.out());

        double collapsedMs = BlameTotals.totalMs(work, profile, "time." + STATE, null);
        assertEquals(ms(inReport.group(1)), collapsedMs, 0.051, "the collapsed export's total, as report rounds it");
        assertTrue(
                BlameTotals.totalWhereMs(
                                work, profile, "time." + STATE, 0, p -> !CREATION_ENTRIES.contains(p.getLast()))
                        == 0,
                "every task_scheduling sample is in a task creation entry");
        double producerMs = BlameTotals.totalMs(work, profile, "time." + STATE, "make_tasks");
        String seen = "loop " + loopMs + " ms, task_scheduling under make_tasks " + producerMs + " ms\n" + report.out();
        assertTrue(producerMs >= 0.35 * loopMs && producerMs <= 1.05 * loopMs, seen);

        double barrierMs = BlameTotals.totalMs(work, profile, "barrier_blame", null);
        double onCreation = BlameTotals.totalWhereMs(
                work, profile, "barrier_blame", 0, p -> CREATION_ENTRIES.contains(p.getLast()));
        // the waiting the loop causes: the other threads', for as long as it runs (less if they were not sampled)
        double duringLoopMs = Math.min(barrierMs, (threads - 1) * loopMs);
        assertTrue(
                barrierMs > 0 && onCreation >= 0.4 * duringLoopMs,
                "barrier blame on task creation " + onCreation + " ms of " + barrierMs + " ms, " + duringLoopMs
                        + " ms of it during the loop: " + seen);

        assertEquals(collapsedMs * 1e6, pprofTotal(profile, "time." + STATE), 1, "pprof's sample type");
        assertEquals(collapsedMs, perfettoStateMs(profile, STATE), 0.1 * collapsedMs + 2, "perfetto's state track");
    }

    private static double ms(String shown) {
        String[] v = shown.split(" ");
        double x = Double.parseDouble(v[0]);
        return switch (v[1]) {
            case "s" -> x * 1e3;
            case "us" -> x / 1e3;
            default -> x;
        };
    }

    private Path export(Path profile, String format, String... more) throws Exception {
        Path out = work.resolve(profile.getFileName() + "." + format);
        List<String> args = new java.util.ArrayList<>(List.of("export", "--format", format, "-o", out.toString()));
        args.addAll(List.of(more));
        args.add(profile.toString());
        Ompprof.Result r = Ompprof.run(work, Map.of(), args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return out;
    }

    /** The sum of one sample type of the pprof export (the type named as the metric). */
    @SuppressWarnings("unchecked")
    private long pprofTotal(Path profile, String metric) throws Exception {
        byte[] raw = new GZIPInputStream(
                        new ByteArrayInputStream(Files.readAllBytes(export(profile, "pprof", "--metric", "time"))))
                .readAllBytes();
        DynamicMessage p = DynamicMessage.parseFrom(PprofWriterTest.profileSchema(), raw);
        List<String> strings =
                (List<String>) p.getField(p.getDescriptorForType().findFieldByName("string_table"));
        List<DynamicMessage> types =
                (List<DynamicMessage>) p.getField(p.getDescriptorForType().findFieldByName("sample_type"));
        int index = -1;
        for (int i = 0; i < types.size(); i++) {
            DynamicMessage t = types.get(i);
            long name = (Long) t.getField(t.getDescriptorForType().findFieldByName("type"));
            if (strings.get((int) name).equals(metric)) index = i;
        }
        assertTrue(index >= 0, metric + " is a sample type");
        long total = 0;
        for (DynamicMessage s :
                (List<DynamicMessage>) p.getField(p.getDescriptorForType().findFieldByName("sample")))
            total += ((List<Long>) s.getField(s.getDescriptorForType().findFieldByName("value"))).get(index);
        return total;
    }

    /** The summed duration of the perfetto trace's state slices named {@code state}, in ms. */
    @SuppressWarnings("unchecked")
    private double perfettoStateMs(Path profile, String state) throws Exception {
        Map<String, Object> trace = (Map<String, Object>) Json.parse(Files.readString(export(profile, "perfetto")));
        return ((List<Map<String, Object>>) trace.get("traceEvents"))
                        .stream()
                                .filter(e -> "X".equals(e.get("ph"))
                                        && "omp_state".equals(e.get("cat"))
                                        && state.equals(e.get("name")))
                                .mapToDouble(e -> (Double) e.get("dur"))
                                .sum()
                / 1000;
    }
}
