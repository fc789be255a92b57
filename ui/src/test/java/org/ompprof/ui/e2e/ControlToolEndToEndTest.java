package org.ompprof.ui.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.record.ControlTool;
import org.ompprof.sampler.record.SampleRecord;

/**
 * {@code record --start-paused} with a program that calls omp_control_tool: samples exist only
 * between its start and its pause, and the profile holds the work of that span alone.
 */
class ControlToolEndToEndTest {
    /** A sample that got past the gate just before the pause finishes within microseconds. */
    private static final long IN_FLIGHT_NS = 2_000_000;

    @TempDir
    Path work;

    @Test
    void startPausedRecordsOnlyBetweenStartAndPause() throws Exception {
        Path profile = work.resolve("control.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "--start-paused",
                "--keep-raw",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("control_tool").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("control_tool: start 0, flush 0, pause 0"), r.out());

        Recorded raw = Recorded.read(profile);
        List<ControlTool> calls = raw.all(ControlTool.class);
        assertEquals(List.of(1, 3, 2), calls.stream().map(ControlTool::command).toList());
        long start = calls.get(0).timeNs(), pause = calls.get(2).timeNs();
        List<SampleRecord> samples = raw.samples();
        assertTrue(samples.size() >= 300, samples.size() + " samples in a 0.4 s span of two threads at 1000 Hz");
        for (SampleRecord s : samples) {
            assertTrue(
                    s.timeNs() >= start && s.timeNs() <= pause + IN_FLIGHT_NS,
                    "sample at " + (s.timeNs() - start) / 1e6 + " ms from the start, pause at " + (pause - start) / 1e6
                            + " ms");
        }

        Ompprof.Result collapsed = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertEquals(0, collapsed.status(), collapsed.err());
        long inside = weight(collapsed.out(), "inside_span");
        assertTrue(inside >= 300, collapsed.out());
        assertEquals(0, weight(collapsed.out(), "before_start"), collapsed.out());
        assertEquals(0, weight(collapsed.out(), "after_pause"), collapsed.out());
        Ompprof.Result info = Ompprof.read("info", profile.toString());
        assertTrue(info.out().contains("started paused"), info.out());
    }

    @Test
    void withoutStartPausedTheProgramsPauseStillEndsSampling() throws Exception {
        Path profile = work.resolve("unpaused.ompprof");
        Ompprof.Result r = Ompprof.run(
                work,
                Map.of("OMP_NUM_THREADS", "2"),
                "record",
                "-o",
                profile.toString(),
                "--",
                CPrograms.clang("control_tool").toString());
        assertEquals(0, r.status(), r.err());
        Ompprof.Result collapsed = Ompprof.read("export", "--format", "collapsed", profile.toString());
        assertTrue(weight(collapsed.out(), "before_start") >= 200, collapsed.out());
        assertTrue(weight(collapsed.out(), "inside_span") >= 300, collapsed.out());
        assertEquals(0, weight(collapsed.out(), "after_pause"), collapsed.out());
    }

    /** Samples whose path goes through {@code function}. */
    private static long weight(String collapsed, String function) {
        return CollapsedLine.all(collapsed).stream()
                .filter(l -> l.frames().contains(function))
                .mapToLong(CollapsedLine::weight)
                .sum();
    }
}
