package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.record.MutexEvent;
import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.wire.Wire;

/**
 * Known-answer programs compiled with clang-19 (one with gcc), recorded by the real launcher and
 * agent on the real libomp, checked against what can be worked out on paper.
 */
class RecordEndToEndTest {
    private static final int STATE_WORK_PARALLEL = 0x001;
    private static final int STATE_WAIT_BARRIER_EXPLICIT = 0x014;
    /** ompt_state_wait_mutex and its kinds (lock, critical, atomic, ordered) share the 0x40 range. */
    private static final int STATE_WAIT_MUTEX_FAMILY = 0x040;

    private static final int MUTEX_CRITICAL = 5;
    private static final Map<String, String> TWO_THREADS = Map.of("OMP_NUM_THREADS", "2");

    @TempDir
    Path work;

    private Recorded record(List<String> options, Path program, String... args) throws Exception {
        Path out = work.resolve("run.ompprof");
        List<String> cmd = new ArrayList<>(List.of("record", "--keep-raw", "-o", out.toString()));
        cmd.addAll(options);
        cmd.add("--");
        cmd.add(program.toString());
        cmd.addAll(List.of(args));
        Ompprof.Result r = Ompprof.run(work, TWO_THREADS, cmd.toArray(String[]::new));
        assertEquals(0, r.status(), () -> "ompprof failed: " + r.err());
        return Recorded.read(out);
    }

    /** Samples of one thread taken inside [begin, end]. */
    private static List<SampleRecord> during(Recorded rec, long[] span) {
        return rec.samples().stream()
                .filter(s -> s.timeNs() >= span[0] && s.timeNs() <= span[1])
                .toList();
    }

    /**
     * Wall mode samples every thread at the rate, whatever it does. Paper answer for two threads
     * spinning inside one region: rate x (region length) timer expirations each, within 15%; no
     * drops. An expiration that falls while the thread waits for a CPU (a busy 2-core host) is
     * merged by the kernel into the next signal, whose weight counts it: so the expirations are
     * the samples' weights over the period, and at least a third of them arrive as samples of their
     * own (on a machine loaded twice over, as under {@code under-load 2}, a thread runs about half
     * the time and the expirations of the other half come merged: 721 to 744 samples of 1,503
     * expirations in three of five runs there, on this code and on the code before it alike).
     */
    @ParameterizedTest
    @ValueSource(ints = {1000, 200})
    void samplesPerThreadAreRateTimesDuration(int rate) throws Exception {
        Recorded rec = record(List.of("--rate", Integer.toString(rate)), CPrograms.clang("spin"), "1.5");
        long[] span = rec.regionSpan(rec.firstRegion().parallelId());
        double expected = (span[1] - span[0]) / 1e9 * rate;
        Map<Integer, Long> perThread = during(rec, span).stream()
                .collect(Collectors.groupingBy(SampleRecord::threadSeq, Collectors.counting()));
        Map<Integer, Long> expirations = during(rec, span).stream()
                .collect(Collectors.groupingBy(
                        SampleRecord::threadSeq, Collectors.summingLong(s -> Math.round(s.weightNs() * rate / 1e9))));
        assertEquals(2, perThread.size(), () -> "threads sampled in the region: " + perThread);
        perThread.forEach((thread, n) -> {
            long e = expirations.get(thread);
            assertEquals(
                    expected,
                    e,
                    0.15 * expected,
                    () -> "thread " + thread + ": " + e + " timer expirations (" + n + " samples), expected " + expected
                            + " at " + rate + " Hz");
            assertTrue(n >= expected / 3, () -> "thread " + thread + ": " + n + " samples of " + expected);
        });
        assertTrue(during(rec, span).stream().allMatch(s -> (s.flags() & Wire.SAMPLE_OMPT_READY) != 0), "OMPT ready");
        long working = during(rec, span).stream()
                .filter(s -> s.state() == STATE_WORK_PARALLEL)
                .count();
        assertTrue(
                working >= 0.95 * during(rec, span).size(), "spinning threads work in parallel (fork and join aside)");
        assertEquals(0, rec.recording().stats().totalDropped(), "dropped records");
    }

    /**
     * Four threads on a smaller machine are not always running, but each sample carries the time
     * it stands for: per thread the weights add up to the region's length, within 15%.
     */
    @Test
    void sampleWeightsAddUpToWallTimeWhenOversubscribed() throws Exception {
        Path out = work.resolve("four.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "4"),
                "record",
                "--keep-raw",
                "-o",
                out.toString(),
                "--",
                CPrograms.clang("spin").toString(),
                "1.5");
        assertEquals(0, r.status(), r.err());
        Recorded rec = Recorded.read(out);
        long[] span = rec.regionSpan(rec.firstRegion().parallelId());
        double length = span[1] - span[0];
        Map<Integer, Long> weight = during(rec, span).stream()
                .collect(
                        Collectors.groupingBy(SampleRecord::threadSeq, Collectors.summingLong(SampleRecord::weightNs)));
        assertEquals(4, weight.size(), () -> "threads: " + weight);
        weight.forEach((t, w) -> assertEquals(length, w, 0.15 * length, () -> "thread " + t + " weight " + w + " ns"));
    }

    /** Thread 1 waits at the explicit barrier while thread 0 works: a barrier wait in that very region. */
    @Test
    void threadAtBarrierIsInBarrierWaitOfItsRegion() throws Exception {
        Recorded rec = record(List.of(), CPrograms.clang("barrier"), "1.0");
        ParallelBegin region = rec.firstRegion();
        List<SampleRecord> waiter = during(rec, rec.regionSpan(region.parallelId())).stream()
                .filter(s -> s.ompThreadNum() == 1)
                .toList();
        List<SampleRecord> waiting = waiter.stream()
                .filter(s -> s.state() == STATE_WAIT_BARRIER_EXPLICIT)
                .toList();
        assertTrue(
                waiting.size() >= 0.8 * waiter.size(),
                () -> waiting.size() + " of " + waiter.size() + " samples of thread 1 wait at the barrier; states "
                        + waiter.stream().collect(Collectors.groupingBy(SampleRecord::state, Collectors.counting())));
        assertTrue(
                waiting.stream()
                        .allMatch(s -> !s.parallelLevels().isEmpty()
                                && s.parallelLevels().getFirst().parallelId() == region.parallelId()
                                && s.taskLevels().getFirst().parallelId() == region.parallelId()),
                "barrier samples name the region");
        // by the time the samples stand for: on a loaded machine a thread waiting for a CPU has its
        // expirations merged into fewer samples (the spinning worker more so than the waiter)
        long working = during(rec, rec.regionSpan(region.parallelId())).stream()
                .filter(s -> s.ompThreadNum() == 0 && s.state() == STATE_WORK_PARALLEL)
                .mapToLong(SampleRecord::weightNs)
                .sum();
        long waited = waiting.stream().mapToLong(SampleRecord::weightNs).sum();
        assertTrue(working >= 0.8 * waited, "thread 0 works meanwhile: " + working + " ns, " + waited + " ns waited");
    }

    /**
     * Two threads take turns in a critical section that is all they do: each waits about half
     * the time, in a mutex wait whose wait id is the one the critical's release records carry.
     * (libomp 19 reports a thread waiting to enter a critical as ompt_state_wait_lock, not
     * wait_critical: its critical entry updates a copy of the thread's OMPT state.)
     */
    @Test
    void criticalWaiterIsInMutexWaitWithTheReleasedWaitId() throws Exception {
        Recorded rec = record(List.of(), CPrograms.clang("critical_body"), "10", "0.05");
        Set<Long> released = rec.all(MutexEvent.class).stream()
                .filter(m -> m.event() == Wire.MUTEX_RELEASED && m.kind() == MUTEX_CRITICAL)
                .map(MutexEvent::waitId)
                .collect(Collectors.toSet());
        assertEquals(1, released.size(), "one named critical: " + released);
        long[] span = rec.regionSpan(rec.firstRegion().parallelId());
        List<SampleRecord> inRegion = during(rec, span);
        List<SampleRecord> waiting = inRegion.stream()
                .filter(s -> (s.state() & ~0xf) == STATE_WAIT_MUTEX_FAMILY)
                .toList();
        // by weight: on a busy host a thread's expirations merge into fewer, heavier samples
        double share =
                (double) waiting.stream().mapToLong(SampleRecord::weightNs).sum()
                        / inRegion.stream().mapToLong(SampleRecord::weightNs).sum();
        assertEquals(0.5, share, 0.1, "share of time waiting for the critical");
        assertTrue(
                waiting.stream().allMatch(s -> released.contains(s.waitId())),
                "wait ids of waiting samples match the critical's releases");
    }

    @Test
    void exitStatusIsTheProgramsAndTheRecordingIsWritten() throws Exception {
        Path program = CPrograms.clang("exit_with");
        Ompprof.Result r = Ompprof.run(
                work, TWO_THREADS, "record", "--keep-raw", "-o", "a.ompprof", "--", program.toString(), "3");
        assertEquals(3, r.status(), r.err());
        assertFalse(Recorded.read(work.resolve("a.ompprof")).samples().isEmpty());
    }

    /**
     * The agent writes a region of a shape it sent before with the region's end, in batches; a program that dies
     * inside such a region (here, a last one of 0.5 s after 30 of 1 ms from the same place) never gets there, nor
     * writes the batch of the regions before it. The JVM writes both from the agent's slot once the program is gone:
     * every sample is still under the function that opened its region (without the open region's begin, 95% of them
     * were under {@code <unknown context>}; without the batch, 6%).
     */
    @Test
    void aProgramDyingInsideARegionKeepsItsContext() throws Exception {
        Path program = CPrograms.clang("exit_with");
        Ompprof.Result r =
                Ompprof.run(work, TWO_THREADS, "record", "-o", "inside.ompprof", "--", program.toString(), "inside");
        assertEquals(4, r.status(), r.err());
        Ompprof.Result paths = Ompprof.run(
                work,
                Map.of(),
                "export",
                "--format",
                "collapsed",
                work.resolve("inside.ompprof").toString());
        assertEquals(0, paths.status(), paths.err());
        long all = 0, underStep = 0;
        for (String line : paths.out().lines().toList()) {
            long n = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            all += n;
            if (line.startsWith("main;step;")) underStep += n;
        }
        assertTrue(all > 300, "samples: " + paths.out());
        assertTrue(underStep * 100 >= 99 * all, underStep + " of " + all + " samples under main;step:\n" + paths.out());
    }

    /**
     * The wall sampler sleeps a period (jittered to between half and one and a half of it) between
     * ticks, and the program's exit waits for it to stop: at 1 Hz a program of 50 ms took at least
     * 0.55 s. The stop wakes it, so the recorded run lasts about what the program does.
     */
    @Test
    void aLowRateDoesNotHoldUpTheProgramsExit() throws Exception {
        Recorded rec = record(List.of("--rate", "1"), CPrograms.clang("spin"), "0.05");
        long wallNs = Long.parseLong(rec.recording().metadata().get(Metadata.WALL_NS, "-1"));
        assertTrue(
                wallNs > 50_000_000 && wallNs < 450_000_000, "a 50 ms program recorded at 1 Hz ran " + wallNs + " ns");
    }

    @ParameterizedTest
    @ValueSource(ints = {6, 11})
    void deathBySignalIs128PlusSignalAndTheRecordingIsWritten(int signal) throws Exception {
        Path program = CPrograms.clang("exit_with");
        Ompprof.Result r = Ompprof.run(
                work,
                TWO_THREADS,
                "record",
                "--keep-raw",
                "-o",
                "s.ompprof",
                "--",
                program.toString(),
                "signal",
                Integer.toString(signal));
        assertEquals(128 + signal, r.status(), r.err());
        Recorded rec = Recorded.read(work.resolve("s.ompprof"));
        assertFalse(rec.samples().isEmpty());
        assertEquals(Integer.toString(128 + signal), rec.recording().metadata().get(Metadata.EXIT_STATUS, "?"));
    }

    /** SIGINT to ompprof reaches the program; the recording of what ran is still written. */
    @Test
    void interruptIsForwardedAndTheRecordingWritten() throws Exception {
        Path program = CPrograms.clang("exit_with");
        // from a shell that does not ignore SIGINT, as a user's does (a suite started in the background ignores it)
        Process p = Ompprof.start(
                work,
                TWO_THREADS,
                List.of("env", "--default-signal=INT"),
                List.of("record", "--keep-raw", "-o", "i.ompprof", "--", program.toString(), "sleep", "60"));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!java.nio.file.Files.readString(work.resolve("stdout.txt")).contains("sleeping")) {
            assertTrue(System.nanoTime() < deadline && p.isAlive(), "the program did not start");
            Thread.sleep(50);
        }
        Thread.sleep(300);
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "ompprof did not stop after SIGINT");
        assertEquals(130, p.exitValue(), Ompprof.result(work, p.exitValue()).err());
        assertFalse(Recorded.read(work.resolve("i.ompprof")).samples().isEmpty());
    }

    /** A GCC-built program (libgomp) runs on libomp's GOMP entry points and is profiled. */
    @Test
    void gccProgramRunsOnLibomp() throws Exception {
        Path program = CPrograms.gcc("spin");
        Ompprof.Result r = Ompprof.run(
                work, TWO_THREADS, "record", "--keep-raw", "-o", "g.ompprof", "--", program.toString(), "0.5");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("GCC OpenMP program"), r.err());
        Recorded rec = Recorded.read(work.resolve("g.ompprof"));
        assertEquals("true", rec.recording().metadata().get(Metadata.OMPT_CONNECTED, "?"));
        // by the time the samples stand for (under load, expirations while a thread waits for a CPU come merged)
        Map<Integer, Long> working = rec.samples().stream()
                .filter(s -> s.state() == STATE_WORK_PARALLEL)
                .collect(
                        Collectors.groupingBy(SampleRecord::threadSeq, Collectors.summingLong(SampleRecord::weightNs)));
        assertEquals(2, working.size(), "both threads work in parallel: " + working);
        working.values().forEach(ns -> assertTrue(ns > 0.5 * 0.5e9, "work " + ns + " ns of 0.5 s"));
    }

    @Test
    void programWithoutOpenMpRunsWithAWarning() throws Exception {
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of(),
                "record",
                "--keep-raw",
                "-o",
                "n.ompprof",
                "--",
                CPrograms.plain("no_openmp").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("no openmp here"), r.out());
        assertTrue(r.err().contains("no OpenMP runtime"), r.err());
    }

    /** Every loaded object is announced; what is not a system file is kept in the recording. */
    @Test
    void modulesAreAnnouncedAndImagesSecured() throws Exception {
        Path program = CPrograms.clang("spin");
        Recorded rec = record(List.of(), program, "0.2");
        List<ModuleInfo> modules = rec.recording().modules();
        ModuleInfo main =
                modules.stream().filter(m -> m.has(Wire.MOD_MAIN)).findFirst().orElseThrow();
        assertEquals(program.toRealPath().toString(), main.path());
        assertEquals(ImageSource.EMBEDDED, main.image());
        assertEquals(
                java.nio.file.Files.size(program),
                rec.recording().moduleImage(main.moduleId()).orElseThrow().length);
        ModuleInfo vdso =
                modules.stream().filter(m -> m.has(Wire.MOD_VDSO)).findFirst().orElseThrow();
        assertEquals(ImageSource.EMBEDDED, vdso.image());
        assertTrue(
                modules.stream()
                        .anyMatch(m -> m.path().contains("libomp.so")
                                && m.image() == ImageSource.REFERENCE
                                && !m.buildId().isEmpty()),
                "libomp referenced by path and build id");
        assertTrue(modules.stream().anyMatch(m -> m.path().contains("libc.so")), "libc");
        assertTrue(modules.stream().anyMatch(m -> m.has(Wire.MOD_AGENT)), "the agent itself");
    }

    /** A library loaded with dlopen from a file deleted while the program runs is still in the recording. */
    @Test
    void dlopenedLibraryDeletedAtRunTimeIsCaptured() throws Exception {
        Path plugin = CPrograms.sharedLibrary("plugin");
        Path copy = work.resolve("libplugin-copy.so");
        Recorded rec = record(List.of(), CPrograms.clang("dlopen_plugin"), plugin.toString(), copy.toString());
        assertFalse(java.nio.file.Files.exists(copy), "the program deleted its copy");
        ModuleInfo loaded = rec.recording().modules().stream()
                .filter(m -> m.path().endsWith("libplugin-copy.so"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "no module for the plugin: " + rec.recording().modules()));
        assertEquals(ImageSource.EMBEDDED, loaded.image(), loaded.note());
        assertTrue(
                java.util.Arrays.equals(
                        java.nio.file.Files.readAllBytes(plugin),
                        rec.recording().moduleImage(loaded.moduleId()).orElseThrow()),
                "captured image is the library's bytes");
    }

    /**
     * CPU mode samples each thread's CPU time: per thread, the weights of the samples taken in
     * the region add up to the CPU time the thread itself measured there (within 15%), while the
     * count may be lower (thread CPU timers fire on the kernel's tick).
     */
    @Test
    void cpuModeWeightsAddUpToCpuTime() throws Exception {
        Recorded rec = record(List.of("--mode", "cpu"), CPrograms.clang("spin"), "1.0");
        assertEquals("cpu", rec.recording().metadata().get(Metadata.MODE, "?"));
        Map<Integer, Double> measured = new java.util.HashMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("cpu thread (\\d+): ([0-9.]+) s")
                .matcher(java.nio.file.Files.readString(work.resolve("stdout.txt")));
        while (m.find()) measured.put(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)) * 1e9);
        long[] span = rec.regionSpan(rec.firstRegion().parallelId());
        Map<Integer, Long> weight = during(rec, span).stream()
                .collect(Collectors.groupingBy(
                        SampleRecord::ompThreadNum, Collectors.summingLong(SampleRecord::weightNs)));
        assertEquals(measured.keySet(), weight.keySet(), "threads");
        weight.forEach((t, w) -> assertEquals(
                measured.get(t),
                w,
                0.15 * measured.get(t),
                () -> "omp thread " + t + ": CPU weight " + w + " ns, measured " + measured.get(t)));
    }
}
