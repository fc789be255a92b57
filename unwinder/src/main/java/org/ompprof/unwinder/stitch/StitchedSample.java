package org.ompprof.unwinder.stitch;

import java.util.List;

/**
 * One sample with its full calling context: the user's call path from the program's root
 * (usually {@code main}) to the sampled pc, with the OpenMP runtime's frames removed and each
 * thread's part placed under the context that created its parallel region or task.
 *
 * @param state the ompt_state_t the sample reported
 * @param regionId the innermost parallel region the thread was in (the agent's id), 0 if none or unknown
 * @param pathRootFirst outermost frame first; never empty
 */
public record StitchedSample(
        int threadSeq,
        long timeNs,
        long weightNs,
        int state,
        long waitId,
        long regionId,
        List<PathFrame> pathRootFirst,
        Kind kind) {
    /** How much of the path is known. Every sample has exactly one kind. */
    public enum Kind {
        /** The whole path, root to leaf. */
        EXACT,
        /** Waiting at a region's implicit end barrier: the region's context, then {@link Placeholder#OMP_BARRIER}. */
        IMPLICIT_BARRIER,
        /** In the runtime before or after a task's user code: the context, then {@link Placeholder#OMP_RUNTIME}. */
        RUNTIME_WINDOW,
        /** No task to run: {@link Placeholder#OMP_IDLE} alone. */
        IDLE,
        /**
         * The unwind ended early: the known context, {@link Placeholder#TRUNCATED}, then the frames that were found.
         */
        TRUNCATED,
        /**
         * The path could not be placed: no stack snapshot, an unwind that failed, or a region or
         * task whose creation was never recorded ({@link Placeholder#UNKNOWN_CONTEXT} at the root).
         */
        UNRESOLVED
    }

    public StitchedSample {
        pathRootFirst = List.copyOf(pathRootFirst);
        if (pathRootFirst.isEmpty()) throw new IllegalArgumentException("empty path");
    }

    /** The innermost element. */
    public PathFrame leaf() {
        return pathRootFirst.getLast();
    }
}
