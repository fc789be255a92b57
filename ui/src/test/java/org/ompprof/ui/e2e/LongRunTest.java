package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.build.ProfileBuilder;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.recording.Recording;

/**
 * A long run is turned into its profile in memory that does not grow with the run, and its file
 * grows linearly with the samples. A real recording of a steady program (long_run.c, two
 * threads) is made forty times as long by repeating its samples (LongRecording); both are
 * built as {@code record} builds them, in JVMs whose heap is capped at 40 MB: the short one and
 * the long one both fit, where holding the long run's samples whole (timelines and blame's
 * columns, about 100 bytes a sample while built) would not. The long profile is the short one
 * forty times over: samples, each thread's timeline, the tree's time, the waiting.
 */
class LongRunTest {
    private static final int COPIES = 40;
    private static final String HEAP = "-Xmx40m";

    @TempDir
    Path work;

    @Test
    void aLongRunIsBuiltInBoundedMemoryAndItsFileGrowsLinearly() throws Exception {
        Path shortProfile = work.resolve("short.ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2", "OMP_WAIT_POLICY", "passive"),
                "record",
                "--keep-raw",
                "-o",
                shortProfile.toString(),
                "--",
                CPrograms.clang("long_run").toString(),
                "3");
        assertEquals(0, rec.status(), rec.err());
        Path raw = work.resolve("short.ompprof.raw");
        Path longRaw = work.resolve("long.raw");
        long longSamples = LongRecording.amplify(raw, longRaw, COPIES);

        Path one = build(raw, work.resolve("one.ompprof"));
        Path many = build(longRaw, work.resolve("many.ompprof"));

        Profile p1 = read(one);
        Profile pn = read(many);
        assertEquals(longSamples, pn.samples());
        assertEquals(COPIES * p1.samples(), pn.samples());
        Map<Integer, Long> w1 = weightByThread(p1), wn = weightByThread(pn);
        assertEquals(w1.keySet(), wn.keySet());
        for (int t : w1.keySet()) assertEquals(COPIES * w1.get(t), wn.get(t), "thread " + t + "'s timeline weight");
        int time1 = p1.tree().metrics().require("time").index(),
                timen = pn.tree().metrics().require("time").index();
        assertEquals(COPIES * p1.tree().total(time1), pn.tree().total(timen), "the tree's time");
        // the copies' samples lie after the recorded regions ended, so their barrier waits count as idle: compare all
        // waiting
        assertEquals(COPIES * waiting(p1), waiting(pn), "waiting at barriers and idle");
        for (String kind : List.of("barrier", "idle")) {
            assertEquals(
                    pn.blame("waited_ns." + kind), pn.blame("charged_ns." + kind), kind + " waiting is charged once");
        }

        double perSample = (double) (Files.size(many) - Files.size(one)) / (pn.samples() - p1.samples());
        assertTrue(
                perSample > 0.05 && perSample < 10,
                "each sample more costs at most a few bytes of file, not " + perSample);
    }

    /**
     * Downsampling on request, as a user asks for it: {@code record --timeline-resolution 10ms}
     * and {@code merge --timeline-resolution 50ms} of one profile. Each thread's timeline keeps
     * its total weight with at most one entry per bin; the tree is the full-resolution one's;
     * info says so.
     */
    @Test
    void timelinesAreDownsampledOnRequestAndTheTreeIsNot() throws Exception {
        Path coarse = work.resolve("coarse.ompprof");
        Ompprof.Result rec = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2", "OMP_WAIT_POLICY", "passive"),
                "record",
                "--keep-raw",
                "--timeline-resolution",
                "10ms",
                "-o",
                coarse.toString(),
                "--",
                CPrograms.clang("long_run").toString(),
                "2");
        assertEquals(0, rec.status(), rec.err());
        Profile full;
        try (Recording raw = Recording.open(work.resolve("coarse.ompprof.raw"))) {
            full = ProfileBuilder.build(raw); // every sample, built from the same recording
        }
        Profile p10 = read(coarse);
        assertDownsampled(full, p10, 10_000_000L);

        Path coarser = work.resolve("coarser.ompprof");
        Ompprof.Result merged = Ompprof.run(
                work, Map.of(), "merge", "--timeline-resolution", "50ms", "-o", coarser.toString(), coarse.toString());
        assertEquals(0, merged.status(), merged.err());
        Profile p50 = read(coarser);
        assertDownsampled(full, p50, 50_000_000L);
        assertTrue(entries(p50) < entries(p10), "coarser still: " + entries(p50) + " of " + entries(p10));

        Ompprof.Result info = Ompprof.read("info", coarser.toString());
        assertTrue(info.out().contains("timelines downsampled: one entry per thread per 50ms"), info.out());
    }

    private static void assertDownsampled(Profile full, Profile coarse, long periodNs) {
        assertEquals(weightByThread(full), weightByThread(coarse), "each thread's time");
        assertEquals(full.samples(), coarse.samples(), "the samples counted");
        int m = full.tree().metrics().require("time").index(),
                mc = coarse.tree().metrics().require("time").index();
        assertEquals(full.tree().size(), coarse.tree().size());
        assertEquals(full.tree().total(m), coarse.tree().total(mc));
        for (Timeline t : coarse.timelines()) {
            for (int i = 1; i < t.size(); i++) {
                assertTrue(
                        Math.floorDiv(t.timeNs(i), periodNs) > Math.floorDiv(t.timeNs(i - 1), periodNs),
                        "one entry per bin");
            }
        }
        assertTrue(entries(coarse) < entries(full) / 5, entries(coarse) + " entries of " + entries(full));
    }

    private static long entries(Profile p) {
        return p.timelines().stream().mapToLong(Timeline::size).sum();
    }

    /** Builds a profile as record does, in a JVM of its own with a capped heap. */
    private Path build(Path raw, Path out) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP,
                "-XX:+UseSerialGC",
                "-Xss4m",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dompprof.root=" + System.getProperty("ompprof.root"),
                "org.ompprof.ui.bench.BuildProfile",
                raw.toString(),
                out.toString(),
                "stream"));
        Path log = work.resolve(out.getFileName() + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("building " + raw + " did not finish");
        }
        assertEquals(0, p.exitValue(), () -> "building " + raw.getFileName() + " with " + HEAP + ": " + logText(log));
        return out;
    }

    private static String logText(Path log) {
        try {
            return Files.readString(log);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private static Profile read(Path profile) {
        try (Recording r = Recording.open(profile)) {
            return ProfileReader.read(r);
        }
    }

    private static long waiting(Profile p) {
        return p.blame("waited_ns.barrier") + p.blame("waited_ns.idle");
    }

    private static Map<Integer, Long> weightByThread(Profile p) {
        Map<Integer, Long> out = new TreeMap<>();
        for (Timeline t : p.timelines()) {
            long sum = 0;
            for (int i = 0; i < t.size(); i++) sum += t.weightNs(i);
            out.merge(t.thread(), sum, Long::sum);
        }
        return out;
    }
}
