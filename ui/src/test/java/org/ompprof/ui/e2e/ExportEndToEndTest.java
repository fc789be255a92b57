package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.calltree.export.FlameGraphPages;

/**
 * A profile exported as folded stacks and as a flame graph: every thread's spinning is under
 * the full path from main, with no OpenMP runtime frames between main and the user's code. The
 * profile file holds the same tree the raw samples give, in a fraction of the bytes.
 */
class ExportEndToEndTest {
    @TempDir
    static Path work;

    static Path recording;
    static long samples;

    @BeforeAll
    static void record() throws Exception {
        recording = work.resolve("spin.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "--keep-raw",
                "-o",
                recording.toString(),
                "--",
                CPrograms.clang("spin").toString(),
                "0.6");
        assertEquals(0, r.status(), r.err());
        samples = Recorded.read(recording).samples().size();
    }

    private static long weight(String line) {
        return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }

    @Test
    void collapsedStacksPutEveryThreadsWorkUnderMain() throws Exception {
        Ompprof.Result r = Ompprof.run(
                work.resolve("c"),
                Map.of(),
                "export",
                "--format",
                "collapsed",
                "--metric",
                "samples",
                recording.toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(
                samples, lines.stream().mapToLong(ExportEndToEndTest::weight).sum(), "every sample is on one path");
        long spinning = lines.stream()
                .filter(l -> l.contains(";spin_for"))
                .mapToLong(ExportEndToEndTest::weight)
                .sum();
        assertTrue(
                spinning >= 0.8 * samples,
                "spin_for holds most samples: " + spinning + " of " + samples + "\n" + r.out());
        lines.stream().filter(l -> l.contains(";spin_for")).forEach(l -> {
            assertTrue(l.startsWith("main;"), "rooted at main: " + l);
            String beforeLeaf = l.substring(0, l.indexOf(";spin_for"));
            assertTrue(!beforeLeaf.contains("__kmp") && !beforeLeaf.contains("libomp"), "no runtime frames: " + l);
        });
    }

    /**
     * By default the stacks weigh what report and the viewer weigh them by, the samples' time (ns): samples stand for
     * unequal times (a thread moved to a slower timer, a wall sample of a blocked thread), and counted, a serial phase
     * read 2-4x its share of a flame graph. Known answer: 2 threads spinning 0.6 s each, about 1.2 s in all (the
     * program's serial start and the workers' start on top), and the sum of the samples' weights exactly.
     */
    @Test
    void collapsedStacksWeighTheirTimeByDefault() throws Exception {
        Ompprof.Result r =
                Ompprof.run(work.resolve("t"), Map.of(), "export", "--format", "collapsed", recording.toString());
        assertEquals(0, r.status(), r.err());
        long ns = r.out().lines().mapToLong(ExportEndToEndTest::weight).sum();
        long weights = Recorded.read(recording).samples().stream()
                .mapToLong(org.ompprof.sampler.record.SampleRecord::weightNs)
                .sum();
        assertEquals(weights, ns, "every sample's time on its path");
        assertEquals(1.2e9, ns, 0.4e9, "two threads' 0.6 s");
    }

    @Test
    void flameGraphHtmlHasTheFrames() throws Exception {
        Path html = work.resolve("flame.html");
        Ompprof.Result r = Ompprof.run(
                work.resolve("h"),
                Map.of(),
                "export",
                "--format",
                "html",
                "--metric",
                "time",
                "-o",
                html.toString(),
                recording.toString());
        assertEquals(0, r.status(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("<title>ompprof: spin.ompprof"), "title");
        // names are prefix-packed in the page (spin_for follows any other name starting "spin"): unpack them as its
        // script does
        List<String> names =
                FlameGraphPages.constantPool(page).stream().map(String::strip).toList();
        assertTrue(names.contains("spin_for") && names.contains("main"), "frames in the page: " + names);
    }

    @Test
    void profileHoldsTheTreeTheRawSamplesGive() throws Exception {
        Path raw = recording.resolveSibling(recording.getFileName() + ".raw");
        for (String metric : List.of("samples", "time", "time.work_parallel")) {
            Ompprof.Result fromProfile = Ompprof.run(
                    work.resolve("p"),
                    Map.of(),
                    "export",
                    "--format",
                    "collapsed",
                    "--metric",
                    metric,
                    recording.toString());
            Ompprof.Result fromRaw = Ompprof.run(
                    work.resolve("r"), Map.of(), "export", "--format", "collapsed", "--metric", metric, raw.toString());
            assertEquals(0, fromProfile.status(), fromProfile.err());
            assertEquals(0, fromRaw.status(), fromRaw.err());
            assertEquals(sorted(fromRaw.out()), sorted(fromProfile.out()), metric);
        }
    }

    @Test
    void mergeAndDiffOnTheCommandLine() throws Exception {
        Path merged = work.resolve("twice.ompprof"),
                diff = work.resolve("diff.ompprof"),
                html = work.resolve("diff.html");
        Path raw = recording.resolveSibling(recording.getFileName() + ".raw");
        // a raw recording among the inputs is built into a profile first
        Ompprof.Result m = Ompprof.run(
                work.resolve("m"), Map.of(), "merge", "-o", merged.toString(), recording.toString(), raw.toString());
        assertEquals(0, m.status(), m.err());
        Ompprof.Result info = Ompprof.run(work.resolve("i"), Map.of(), "info", merged.toString());
        assertTrue(info.out().contains("merged     2 runs"), info.out());
        Ompprof.Result folded = Ompprof.run(
                work.resolve("f"),
                Map.of(),
                "export",
                "--format",
                "collapsed",
                "--metric",
                "samples",
                merged.toString());
        assertEquals(
                2 * samples,
                folded.out().lines().mapToLong(ExportEndToEndTest::weight).sum(),
                "both runs' samples");

        Ompprof.Result d = Ompprof.run(
                work.resolve("d"), Map.of(), "diff", "-o", diff.toString(), recording.toString(), merged.toString());
        assertEquals(0, d.status(), d.err());
        Ompprof.Result delta = Ompprof.run(
                work.resolve("dd"),
                Map.of(),
                "export",
                "--format",
                "collapsed",
                "--metric",
                "delta.samples",
                diff.toString());
        assertEquals(
                samples,
                delta.out().lines().mapToLong(ExportEndToEndTest::weight).sum(),
                "B - A is the second run");
        Ompprof.Result h = Ompprof.run(
                work.resolve("dh"), Map.of(), "export", "--format", "html", "-o", html.toString(), diff.toString());
        assertEquals(0, h.status(), h.err());
        String page = Files.readString(html);
        assertTrue(page.contains(">Grew</dd>") && !page.contains("const maxdiff = -1;"), "a differential flame graph");
    }

    private static List<String> sorted(String lines) {
        return lines.lines().sorted().toList();
    }

    /** Frames, not stack bytes: the goal is under 16 bytes per sample on average. */
    @Test
    void profileKeepsFramesNotStacks() throws Exception {
        long profileBytes = Files.size(recording);
        long rawBytes = Files.size(recording.resolveSibling(recording.getFileName() + ".raw"));
        double perSample = (double) profileBytes / samples;
        assertTrue(perSample < 16, profileBytes + " bytes for " + samples + " samples");
        assertTrue(profileBytes * 10 < rawBytes, "profile " + profileBytes + " vs raw " + rawBytes);
        Ompprof.Result info = Ompprof.run(work.resolve("i"), Map.of(), "info", recording.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(
                info.out().startsWith("profile ")
                        && info.out().contains(" calling contexts over ")
                        && info.out()
                                .contains(String.format(
                                        java.util.Locale.ROOT, "%,d samples in 2 thread timelines", samples)),
                info.out());
    }

    @Test
    void unknownMetricIsOneLine() throws Exception {
        Ompprof.Result r = Ompprof.run(
                work.resolve("m"),
                Map.of(),
                "export",
                "--format",
                "collapsed",
                "--metric",
                "nope",
                recording.toString());
        assertEquals(2, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("unknown metric 'nope'") && r.err().contains("time.barrier"), r.err());
    }
}
