package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DynamicMessage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.calltree.export.Json;
import org.ompprof.calltree.export.PprofWriterTest;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.recording.Recording;

/**
 * A real recording (imbalance_loop.c, 2 threads) exported as a Perfetto trace, a pprof profile
 * and a speedscope file through the command line, each read back and checked against the
 * profile it came from.
 */
class ExportFormatsEndToEndTest {
    @TempDir
    static Path work;

    static Path file;
    static Profile profile;

    @BeforeAll
    static void record() throws Exception {
        file = work.resolve("imbalance.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                file.toString(),
                "--",
                CPrograms.clang("imbalance_loop").toString(),
                "0.05",
                "3");
        assertEquals(0, r.status(), r.err());
        try (Recording rec = Recording.open(file)) {
            profile = ProfileReader.read(rec);
        }
    }

    private static Path export(String format, String... more) throws Exception {
        Path out = work.resolve("out." + format);
        List<String> args = new java.util.ArrayList<>(List.of("export", "--format", format, "-o", out.toString()));
        args.addAll(List.of(more));
        args.add(file.toString());
        Ompprof.Result r = Ompprof.run(work.resolve(format), Map.of(), args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return out;
    }

    @Test
    @SuppressWarnings("unchecked")
    void perfettoTraceHasEveryThreadsStacksAndStates() throws Exception {
        Map<String, Object> trace = (Map<String, Object>) Json.parse(Files.readString(export("perfetto")));
        List<Map<String, Object>> events = (List<Map<String, Object>>) trace.get("traceEvents");
        for (Timeline t : profile.timelines()) {
            assertTrue(
                    events.stream()
                            .anyMatch(e -> e.get("ph").equals("M")
                                    && ((Map<?, ?>) e.get("args"))
                                            .get("name")
                                            .toString()
                                            .startsWith("thread " + t.thread() + " (")),
                    "thread " + t.thread() + " is named");
            List<Map<String, Object>> work = events.stream()
                    .filter(e -> e.get("ph").equals("X")
                            && e.get("name").equals("work_units")
                            && ((Double) e.get("tid")).intValue() == t.thread())
                    .toList();
            double slicesMs =
                    work.stream().mapToDouble(e -> (Double) e.get("dur")).sum() / 1000;
            double treeMs = profile.tree().inclusive(workUnits(), t.thread(), StandardMetrics.TIME) / 1e6;
            assertEquals(
                    treeMs, slicesMs, 0.1 * treeMs + 2, "thread " + t.thread() + ": work_units slices hold its time");
        }
        assertTrue(
                events.stream()
                        .anyMatch(e -> e.get("ph").equals("X")
                                && e.get("name").toString().startsWith("barrier")),
                "the imbalance shows as barrier state slices");
    }

    private static int workUnits() {
        int best = -1;
        for (int n = 1; n < profile.tree().size(); n++) {
            if (profile.tree().frameOf(n).name().equals("work_units")
                    && (best < 0
                            || profile.tree().inclusive(n, StandardMetrics.TIME)
                                    > profile.tree().inclusive(best, StandardMetrics.TIME))) best = n;
        }
        return best;
    }

    @Test
    @SuppressWarnings("unchecked")
    void pprofProfileHoldsEveryMetricsTotal() throws Exception {
        byte[] raw = new GZIPInputStream(
                        new ByteArrayInputStream(Files.readAllBytes(export("pprof", "--metric", "time"))))
                .readAllBytes();
        DynamicMessage p = DynamicMessage.parseFrom(PprofWriterTest.profileSchema(), raw);
        List<String> strings =
                (List<String>) p.getField(p.getDescriptorForType().findFieldByName("string_table"));
        List<DynamicMessage> types =
                (List<DynamicMessage>) p.getField(p.getDescriptorForType().findFieldByName("sample_type"));
        assertEquals(
                "time",
                strings.get(((Long) types.getFirst()
                                .getField(
                                        types.getFirst().getDescriptorForType().findFieldByName("type")))
                        .intValue()));
        long time = 0;
        for (DynamicMessage s :
                (List<DynamicMessage>) p.getField(p.getDescriptorForType().findFieldByName("sample"))) {
            time += ((List<Long>) s.getField(s.getDescriptorForType().findFieldByName("value"))).getFirst();
        }
        assertEquals(profile.tree().total(StandardMetrics.TIME), time, "the default type's total is the tree's time");
    }

    @Test
    @SuppressWarnings("unchecked")
    void speedscopeFileHasOneProfilePerThread() throws Exception {
        Map<String, Object> file = (Map<String, Object>) Json.parse(Files.readString(export("speedscope")));
        List<Map<String, Object>> profiles = (List<Map<String, Object>>) file.get("profiles");
        assertEquals(profile.timelines().size(), profiles.size());
        for (int i = 0; i < profiles.size(); i++) {
            Timeline t = profile.timelines().get(i);
            long total = 0;
            for (int k = 0; k < t.size(); k++) total += t.weightNs(k);
            assertEquals(
                    (double) total,
                    ((List<Double>) profiles.get(i).get("weights"))
                            .stream().mapToDouble(d -> d).sum());
            assertEquals(t.size(), ((List<?>) profiles.get(i).get("samples")).size());
        }
    }
}
