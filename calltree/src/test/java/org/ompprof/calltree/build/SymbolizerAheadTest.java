package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;
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
            long before = symbolizers();
            try (SymbolizerAhead ahead = SymbolizerAhead.start(new ModuleImages(), on, StageClock.off())) {
                if (on == null) assertTrue(symbolizers() > before, "on one thread: started at once, before the index");
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

    private static long symbolizers() {
        return ProcessHandle.current()
                .children()
                .filter(p -> p.info().command().orElse("").contains("llvm-symbolizer"))
                .count();
    }

    private static boolean running(Symbolizer s) {
        return s.llvm().map(l -> l.pid().isPresent()).orElse(false);
    }
}
