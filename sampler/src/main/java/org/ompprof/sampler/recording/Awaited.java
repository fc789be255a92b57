package org.ompprof.sampler.recording;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * A result some other thread of the same piece of work is finishing: waited for through interrupts (the work runs on,
 * and its result is still wanted; the interrupt is passed on after), its failure rethrown unwrapped, so the taker sees
 * what it would have seen had it done the work itself.
 */
public final class Awaited {
    private Awaited() {}

    public static <T> T result(Future<T> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
