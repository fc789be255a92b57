package org.ompprof.sampler.launch;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Undo actions (unlink the shared memory, delete temp files) that run exactly once: at the end
 * of a recording, or from a shutdown hook if the JVM goes down first.
 */
final class Cleanup implements AutoCloseable {
    private final Deque<Runnable> actions = new ArrayDeque<>();
    private final Thread hook = new Thread(this::runAll, "ompprof-cleanup");
    private boolean done;

    Cleanup() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Adds an action; actions run last-added first. */
    synchronized void add(Runnable action) {
        actions.push(action);
    }

    private synchronized void runAll() {
        if (done) return;
        done = true;
        while (!actions.isEmpty()) {
            try {
                actions.pop().run();
            } catch (RuntimeException ignored) {
                // best effort: the others must still run
            }
        }
    }

    @Override
    public void close() {
        runAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // shutting down already: the hook runs anyway, and finds nothing left to do
        }
    }
}
