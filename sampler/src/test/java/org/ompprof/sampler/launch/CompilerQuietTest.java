package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompilerQuietTest {
    /** A scripted JIT: each poll reads the next run time; the clock moves a poll's time per pause. */
    private static final class Script {
        final Deque<OptionalLong> readings = new ArrayDeque<>();
        long now;
        int pauses;

        Script(long... runNs) {
            for (long r : runNs) readings.add(r < 0 ? OptionalLong.empty() : OptionalLong.of(r));
        }

        long await(long limitNs) throws InterruptedException {
            OptionalLong[] last = {OptionalLong.empty()};
            CompilerQuiet q = new CompilerQuiet(
                    () -> {
                        if (!readings.isEmpty()) last[0] = readings.poll();
                        return last[0];
                    },
                    () -> now,
                    () -> {
                        pauses++;
                        now += CompilerQuiet.POLL_NS;
                    });
            return q.awaitQuiet(limitNs);
        }
    }

    @Test
    void anIdleCompilerIsWaitedForOnlyTheQuietPolls() throws InterruptedException {
        Script s = new Script(500, 500, 500, 500);
        assertEquals(CompilerQuiet.QUIET_POLLS * CompilerQuiet.POLL_NS, s.await(CompilerQuiet.LIMIT_NS));
        assertEquals(CompilerQuiet.QUIET_POLLS, s.pauses);
    }

    @Test
    void aCompilingThreadIsWaitedForUntilItStops() throws InterruptedException {
        // compiling for 5 polls, then still: 5 polls of change and 3 of quiet
        Script s = new Script(100, 200, 300, 400, 500, 600, 600);
        s.await(CompilerQuiet.LIMIT_NS);
        assertEquals(5 + CompilerQuiet.QUIET_POLLS, s.pauses);
    }

    @Test
    void aQuietRunThatBreaksStartsOver() throws InterruptedException {
        Script s = new Script(100, 100, 100, 150, 150);
        s.await(CompilerQuiet.LIMIT_NS);
        assertEquals(3 + CompilerQuiet.QUIET_POLLS, s.pauses);
    }

    @Test
    void aCompilerThatNeverStopsIsWaitedForAtMostTheLimit() throws InterruptedException {
        long[] always = new long[1000];
        for (int i = 0; i < always.length; i++) always[i] = i;
        Script s = new Script(always);
        long limit = 20 * CompilerQuiet.POLL_NS;
        assertEquals(limit, s.await(limit));
    }

    @Test
    void nothingIsWaitedForWithoutCompilerThreadsOrSchedstat() throws InterruptedException {
        assertEquals(0, new Script(-1).await(CompilerQuiet.LIMIT_NS));
        Script vanished = new Script(100, 200, -1);
        vanished.await(CompilerQuiet.LIMIT_NS);
        assertEquals(2, vanished.pauses);
    }

    @Test
    void compilerThreadsAreFoundByNameAndTheirRunTimesAdded(@TempDir Path tasks) throws IOException {
        thread(tasks, 11, "C1 CompilerThre\n", "1000 20 3\n");
        thread(tasks, 12, "C2 CompilerThre\n", "250 0 1\n");
        thread(tasks, 13, "ompprof-drainer\n", "99999 0 1\n");
        thread(tasks, 14, "VM Thread\n", "7 0 1\n");
        assertEquals(OptionalLong.of(1250), CompilerQuiet.runNs(tasks));
    }

    @Test
    void noCompilerThreadOrAnUnreadableOneMeansNoAnswer(@TempDir Path tasks) throws IOException {
        thread(tasks, 13, "ompprof-drainer\n", "99999 0 1\n");
        assertEquals(OptionalLong.empty(), CompilerQuiet.runNs(tasks));
        thread(tasks, 11, "C1 CompilerThre\n", "not a number\n");
        assertEquals(OptionalLong.empty(), CompilerQuiet.runNs(tasks));
        assertEquals(OptionalLong.empty(), CompilerQuiet.runNs(tasks.resolve("absent")));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomAndTruncatedSchedstatNeverThrows(long seed, @TempDir Path tasks) throws IOException {
        Random r = new Random(seed);
        byte[] bytes = new byte[r.nextInt(40)];
        r.nextBytes(bytes);
        Path t = Files.createDirectories(tasks.resolve("21"));
        Files.writeString(t.resolve("comm"), "C1 CompilerThre\n");
        Files.write(t.resolve("schedstat"), bytes);
        OptionalLong v = CompilerQuiet.runNs(tasks);
        Files.writeString(t.resolve("schedstat"), "123456789 0 1\n".substring(0, r.nextInt(14)));
        OptionalLong truncated = CompilerQuiet.runNs(tasks);
        assertEquals(firstNumber(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)), v);
        assertTrue(truncated.isEmpty()
                || List.of(1L, 12L, 123L, 1234L, 12345L, 123456L, 1234567L, 12345678L, 123456789L)
                        .contains(truncated.getAsLong()));
    }

    @Test
    void thisJvmsCompilerThreadsAreSeen() {
        // the suite runs on Linux with HotSpot: /proc/self/task names its JIT threads and counts their run time
        OptionalLong ns = CompilerQuiet.runNs(Path.of("/proc/self/task"));
        assertTrue(ns.isPresent() && ns.getAsLong() > 0, "compiler threads' run time: " + ns);
    }

    /** What schedstat's reader should make of {@code text}: its first field as a number, if it is one. */
    private static OptionalLong firstNumber(String text) {
        String[] f = text.trim().split(" ", 2);
        try {
            return OptionalLong.of(Long.parseLong(f[0]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static void thread(Path tasks, int tid, String comm, String schedstat) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(t.resolve("comm"), comm);
        Files.writeString(t.resolve("schedstat"), schedstat);
    }
}
