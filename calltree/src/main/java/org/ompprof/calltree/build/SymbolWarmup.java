package org.ompprof.calltree.build;

import java.util.List;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.symbols.Symbolizer;

/**
 * On a spare build thread, while the recording is decoded: llvm-symbolizer reads the debug
 * information of each of the program's modules (one question about each), which it otherwise
 * does when the first sample in that module is named, with the build waiting for it (a libc with
 * a separate debug file: about 0.2 s). Answers do not depend on when they are asked, so the
 * profile is the same; the symbolizer takes one question at a time, from whichever thread.
 */
final class SymbolWarmup {
    private SymbolWarmup() {}

    static void start(BuildThreads threads, Symbolizer symbolizer, List<Module> modules) {
        threads.startWaiting(() -> {
            for (Module m : modules) {
                if (Thread.currentThread().isInterrupted()) return; // the build is over
                try {
                    symbolizer.symbolize(m, 0);
                } catch (RuntimeException e) {
                    return; // a closed symbolizer: the build ended first; a failure shows where samples ask
                }
            }
        });
    }
}
