package org.ompprof.calltree.build;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.ompprof.sampler.recording.Awaited;

/**
 * A result the build takes later, worked out meanwhile on another of its threads: work that does
 * not depend on what the building thread does until it takes the result (starting
 * llvm-symbolizer while the recording is indexed, the region table while blame is charged). On a
 * build with one thread it is worked out where it is taken. Either way the result is the same,
 * and a failure is rethrown (unwrapped) where the result is taken.
 */
final class Later<T> {
    private final FutureTask<T> task;

    private Later(FutureTask<T> task) {
        this.task = task;
    }

    /** {@code work} on {@code thread}, or, if that is null, on the thread that first {@link #get}s it. */
    static <T> Later<T> start(ExecutorService thread, Supplier<T> work) {
        Later<T> later = new Later<>(new FutureTask<>(work::get));
        if (thread != null) thread.execute(later.task);
        return later;
    }

    /** The result, waiting for the other thread to finish it (or working it out here if it has not begun). */
    T get() {
        task.run(); // does nothing if the other thread has begun it
        return Awaited.result(task);
    }
}
