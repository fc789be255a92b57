package org.ompprof.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.RecordingFormatException;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.RingStats;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.sampler.wire.Wire;

class InfoCommandTest {
    @TempDir
    Path dir;

    Path recording() throws IOException {
        return recording(2097152);
    }

    Path recording(long eventRingBytes) throws IOException {
        Path file = dir.resolve("app.ompprof");
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Metadata.COMMAND, "./app 4");
        m.put(Metadata.MODE, "wall");
        m.put(Metadata.RATE_HZ, "1000");
        m.put(Metadata.STACK_BYTES, "16384");
        m.put(Metadata.OMPT_CONNECTED, "true");
        m.put(Metadata.RUNTIME_VERSION, "LLVM OMP version: 5.0.20140926");
        m.put(Metadata.OMPT_VERSION, "201611");
        m.put(Metadata.WALL_NS, "3210000000");
        m.put(Metadata.EXIT_STATUS, "0");
        m.put(Metadata.SAMPLE_RING_BYTES, "1048576");
        m.put(Metadata.EVENT_RING_BYTES, Long.toString(eventRingBytes));
        long[] hist = new long[Wire.HIST_BUCKETS];
        hist[70] = 12_000;
        hist[200] = 800;
        try (RecordingWriter w = RecordingWriter.create(file)) {
            w.metadata(new Metadata(m));
            w.threads(List.of(
                    new ThreadInfo(1, 4242, 1, 0, 1, 9, 1, 9, 6_400, 10, 0, 0, Map.of(0x001, 6_000L, 0x011, 400L)),
                    new ThreadInfo(2, 4243, 2, 1, 1, 9, 1, 9, 6_400, 10, 12, 0, Map.of(0x001, 3_000L, 0x042, 3_400L))));
            w.modules(List.of(
                    new ModuleInfo(
                            1,
                            "/tmp/app",
                            Wire.MOD_MAIN,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            "",
                            List.of(),
                            0,
                            0,
                            ImageSource.EMBEDDED,
                            "",
                            0,
                            ""),
                    new ModuleInfo(
                            2,
                            "/tmp/gone.so",
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            "",
                            List.of(),
                            0,
                            0,
                            ImageSource.MISSING,
                            "",
                            0,
                            "deleted or changed during the run")));
            w.stats(new Stats(
                    new HandlerHistogram(hist),
                    12_800,
                    12_800L * 1200,
                    0,
                    3,
                    0,
                    0,
                    List.of(),
                    List.of(new RingStats(1, 6_412, 12, 2400, 10, 0, 0)),
                    List.of("/tmp/gone.so: deleted or changed during the run"),
                    600_000,
                    200_000));
            w.commit();
        }
        return file;
    }

    @Test
    void showsTheRunThreadsStatesDropsCostAndModules() throws Exception {
        Path file = recording();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(
                0,
                InfoCommand.run(
                        List.of(file.toString()), new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        String text = out.toString(StandardCharsets.UTF_8);
        for (String expected : List.of(
                "command    ./app 4",
                "wall time, 1000 Hz per thread",
                "LLVM OMP version: 5.0.20140926 (OMPT 201611)",
                "3.21 s, exit status 0",
                "work_parallel",
                "barrier.implicit_parallel",
                "critical",
                "6,400",
                "12,800",
                "ring full:          12 samples",
                "thread 2: 12",
                "peak ring fill:     samples 600.0 kB of 1.0 MB (57%), callback records 200.0 kB of 2.1 MB (10%) "
                        + "(raise --ring-kib)",
                "no free slot:       3 records (raise --slots)",
                "12,800 calls, mean 1,200 ns, median 1,136 ns, p99 3,216 ns, max 3,216 ns",
                "module image not captured: /tmp/gone.so: deleted or changed during the run",
                "1 images in the recording")) {
            assertTrue(text.contains(expected), () -> "missing '" + expected + "' in\n" + text);
        }
        String header = text.lines()
                .filter(l -> l.contains("work_parallel"))
                .findFirst()
                .orElseThrow();
        assertTrue(header.indexOf("work_parallel") < header.indexOf("barrier.implicit_parallel"));
        assertTrue(header.indexOf("barrier.implicit_parallel") < header.indexOf(" critical"));
    }

    /** Each ring's advice names the option that grows that ring: callback records have their own. */
    @Test
    void aFullEventRingNamesItsOwnOption() throws Exception {
        Path file = recording(262144);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(
                0,
                InfoCommand.run(
                        List.of(file.toString()), new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(
                text.contains("callback records 200.0 kB of 262.1 kB (76%) (raise --ring-kib and --event-ring-kib)"),
                text);
    }

    /** Wall mode's task views: made from the tasks' data once learnt, or all asked of the runtime, or none made. */
    @Test
    void taskViewsSayHowTheyWereMade() throws Exception {
        String views = "task views ";
        assertTrue(reportOf(Map.of(Metadata.TASK_FRAME_LAYOUT, "found", Metadata.TASK_VIEWS_ASKED, "1812"))
                .contains(views + "1,812 asked of the runtime (to learn, then check, that a task's frame lies by its"
                        + " data); the others made from the tasks' data\n"));
        assertTrue(reportOf(Map.of(Metadata.TASK_FRAME_LAYOUT, "refuted", Metadata.TASK_VIEWS_ASKED, "40"))
                .contains(views + "40 asked of the runtime, all of them: an answer put a task's frame elsewhere"));
        assertTrue(reportOf(Map.of(Metadata.TASK_FRAME_LAYOUT, "asked", Metadata.TASK_VIEWS_ASKED, "7"))
                .contains(views + "7 asked of the runtime, all of them (too few answers"));
        assertFalse(reportOf(Map.of(Metadata.TASK_FRAME_LAYOUT, "asked", Metadata.TASK_VIEWS_ASKED, "0"))
                .contains(views));
        assertFalse(reportOf(Map.of()).contains(views), "a cpu-mode or older recording says nothing of task views");
    }

    /** info of a recording with this metadata and nothing else. */
    private String reportOf(Map<String, String> metadata) throws IOException {
        Path file = dir.resolve("metadata-" + metadata.hashCode() + ".ompprof");
        try (RecordingWriter w = RecordingWriter.create(file)) {
            w.metadata(new Metadata(new LinkedHashMap<>(metadata)));
            w.threads(List.of());
            w.modules(List.of());
            w.stats(new Stats(
                    new HandlerHistogram(new long[Wire.HIST_BUCKETS]),
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    List.of(),
                    List.of(),
                    List.of()));
            w.commit();
        }
        try (var r = org.ompprof.sampler.recording.Recording.open(file)) {
            return InfoCommand.report(r, 1);
        }
    }

    @Test
    void theCollectorsCostIsShownWhenRecordedAndOlderFilesShowNothing() throws Exception {
        Path older = recording();
        assertFalse(InfoCommand.report(org.ompprof.sampler.recording.Recording.open(older), 1)
                .contains("collector cost"));

        Map<String, String> m = new LinkedHashMap<>();
        m.put(Metadata.WALL_NS, "4000000000");
        m.put(Metadata.COLLECTOR_CPU_AT_START_NS, "500000000");
        m.put(Metadata.COLLECTOR_CPU_AT_END_NS, "700000000");
        m.put(Metadata.COLLECTOR_CPU_AT_PROFILE_NS, "2200000000");
        m.put(Metadata.COLLECTOR_PEAK_HEAP_BYTES, "85000000");
        m.put(Metadata.COLLECTOR_PEAK_RSS_BYTES, "120000000");
        m.put(Metadata.BUILD_WALL_NS, "1000000000");
        m.put(Metadata.BUILD_STAGE_NS + "decode", "400000000");
        m.put(Metadata.BUILD_STAGE_ITEMS + "decode", "52311");
        m.put(Metadata.BUILD_STAGE_NS + "write", "100000000");
        m.put(Metadata.BUILD_STAGE_ITEMS + "write", "1200000");
        String text = reportOf(m);
        for (String expected : List.of(
                "collector cost (the ompprof JVM, all its threads)\n",
                "  CPU time:           0.50 s starting up, 0.20 s while the program ran (5.0% of one core over "
                        + "its 4.00 s), 1.50 s building the profile\n",
                "  peak heap:          85.0 MB (the heap pools' peaks added up)\n",
                "  peak RSS:           120.0 MB (resident memory, when the program ended)\n",
                "  profile build:      1.00 s wall, by stage:\n",
                "    decode        0.40 s   40%   52,311 records\n",
                "    write         0.10 s   10%   1.2 MB\n")) {
            assertTrue(text.contains(expected), () -> "missing '" + expected + "' in\n" + text);
        }
        assertFalse(text.contains("    unwind"), "a stage the file does not have is not shown");
    }

    @Test
    void aDamagedFileIsOneLineOfExplanation() throws Exception {
        Path file = recording();
        byte[] b = Files.readAllBytes(file);
        b[40] ^= 1;
        Files.write(file, b);
        RecordingFormatException e = assertThrows(
                RecordingFormatException.class,
                () -> InfoCommand.run(List.of(file.toString()), System.out, System.err));
        assertTrue(
                e.getMessage().startsWith(file + ": corrupt section at offset 16 (checksum mismatch)"), e.getMessage());
        assertTrue(e.getMessage().lines().count() == 1);
        assertEquals(
                "no such file: nope.ompprof",
                assertThrows(UserError.class, () -> InfoCommand.run(List.of("nope.ompprof"), System.out, System.err))
                        .getMessage());
        assertThrows(UserError.class, () -> InfoCommand.run(List.of(), System.out, System.err));
    }

    @Test
    void cpuClockSaysWhichThreadsMovedToTimers() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Metadata.MODE, "cpu");
        m.put(Metadata.PERF_SAMPLES, "1234");
        m.put(Metadata.CPU_MOVED_THREADS, "0");
        m.put(Metadata.CPU_SWITCH_LIMIT, "2000");
        m.put(Metadata.CPU_TIMER_SAMPLES, "0");
        assertEquals(
                "perf cpu-clock events (1,234 samples)",
                InfoCommand.cpuClock(new Metadata(m)).orElseThrow());
        m.put(Metadata.CPU_MOVED_THREADS, "3");
        m.put(Metadata.CPU_TIMER_SAMPLES, "5678");
        assertEquals(
                "perf cpu-clock events (1,234 samples); 3 threads moved to CPU-clock timers, switching over 2,000 times"
                        + " per CPU-second (5,678 samples, at the kernel's tick)",
                InfoCommand.cpuClock(new Metadata(m)).orElseThrow());
    }
}
