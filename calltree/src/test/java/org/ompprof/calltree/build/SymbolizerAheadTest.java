package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * A symbolizer started ahead (llvm-symbolizer running) is the build's until it closes, taken or
 * not; one the caller started stays the caller's.
 */
class SymbolizerAheadTest {
    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    @Test
    void startedAheadOrWhereTakenItStopsWithTheBuild() {
        for (ExecutorService on : new ExecutorService[] {thread, null}) {
            Symbolizer s;
            Set<Long> before = symbolizers();
            try (SymbolizerAhead ahead = SymbolizerAhead.start(new ModuleImages(), on, StageClock.off())) {
                // a new process, not a count: the first round's may still be exiting
                if (on == null)
                    assertTrue(
                            symbolizers().stream().anyMatch(pid -> !before.contains(pid)),
                            "on one thread: started at once, before the index");
                s = ahead.get(StageClock.off());
                assertTrue(running(s), "llvm-symbolizer runs: " + s.problems());
            }
            assertTrue(!running(s), "stopped");
            assertThrows(IllegalStateException.class, () -> s.symbolizeAll(null, new long[0]));
        }
    }

    @Test
    void oneNeverTakenStopsToo() throws Exception {
        // a build that failed before its index was built: the start under way is waited for, then stopped
        SymbolizerAhead ahead = SymbolizerAhead.start(new ModuleImages(), thread, StageClock.off());
        ahead.close();
        Symbolizer s = thread.submit(() -> ahead.get(StageClock.off())).get();
        assertTrue(!running(s));
    }

    @Test
    void theCallersOwnStaysOpen() {
        try (Symbolizer own = Symbolizer.create()) {
            try (SymbolizerAhead ahead = SymbolizerAhead.of(own)) {
                ahead.get(StageClock.off());
            }
            assertTrue(running(own), "still the caller's: " + own.problems());
        }
    }

    /**
     * The modules to load ahead reach llvm-symbolizer once it is started, on the thread that starts it or, with none,
     * at once: it reads (maps) the program's file before any question about it.
     */
    @Test
    void modulesLoadAheadOnceStarted(@TempDir Path dir) throws Exception {
        Path program = debugProgram(dir);
        for (ExecutorService on : new ExecutorService[] {thread, null}) {
            try (SymbolizerAhead ahead = SymbolizerAhead.start(new ModuleImages(), on, StageClock.off())) {
                ahead.loadAhead(List.of(Module.open(program, 0)));
                long pid =
                        ahead.get(StageClock.off()).llvm().orElseThrow().pid().orElseThrow();
                long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (!maps(pid, program) && System.nanoTime() < until) Thread.sleep(10);
                assertTrue(maps(pid, program), "llvm-symbolizer has not read " + program);
            }
        }
    }

    /** A program with debug info, big enough (over 16 KiB) that llvm-symbolizer maps it rather than read it. */
    private static Path debugProgram(Path dir) throws Exception {
        Path source = dir.resolve("big.c");
        Files.writeString(source, "static const char pad[32768] = {1};\nint main(void) { return pad[0]; }\n");
        Path out = dir.resolve("big");
        Process p = new ProcessBuilder("clang-19", "-g", "-O0", "-o", out.toString(), source.toString())
                .inheritIO()
                .start();
        assertEquals(0, p.waitFor(), "clang-19 failed");
        return out;
    }

    private static boolean maps(long pid, Path file) throws java.io.IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/maps")).stream()
                .anyMatch(l -> l.endsWith(file.toString()));
    }

    private static Set<Long> symbolizers() {
        return ProcessHandle.current()
                .children()
                .filter(p -> p.info().command().orElse("").contains("llvm-symbolizer"))
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static boolean running(Symbolizer s) {
        return s.llvm().map(l -> l.pid().isPresent()).orElse(false);
    }
}
