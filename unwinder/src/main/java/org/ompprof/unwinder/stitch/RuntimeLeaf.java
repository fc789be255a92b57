package org.ompprof.unwinder.stitch;

import java.util.List;
import java.util.function.Predicate;
import org.ompprof.unwinder.stack.Frame;

/**
 * The runtime frames at the leaf side of a task's frames. Not every runtime entry point sets
 * an enter frame (libomp 19's {@code omp_set_lock} and {@code __kmpc_critical} do not), so the
 * runtime's internals can still sit under the user's call. What a user wants to see there is
 * the call they made: the outermost frame of the innermost run of runtime frames (e.g.
 * {@code omp_set_lock}); everything inside it, including the system calls the runtime made,
 * goes.
 */
final class RuntimeLeaf {
    private RuntimeLeaf() {}

    /**
     * The new innermost index for {@code frames[from, end)}: the runtime frame called by user
     * code, if the leaf side is in the runtime, else {@code from} unchanged.
     */
    static int entryCalledByUser(List<Frame> frames, int from, int end, Predicate<Frame> runtime) {
        for (int i = from; i < end; i++) {
            if (runtime.test(frames.get(i)) && (i + 1 == end || !runtime.test(frames.get(i + 1)))) return i;
        }
        return from;
    }

    /**
     * The new innermost index when the runtime's part is not wanted at all (a creation
     * context ends at the user's call site): past every runtime frame at the leaf side.
     */
    static int firstUserFrame(List<Frame> frames, int from, int end, Predicate<Frame> runtime) {
        int i = entryCalledByUser(frames, from, end, runtime);
        return i < end && runtime.test(frames.get(i)) ? i + 1 : i;
    }

    /**
     * The end that makes a path start at {@code main} (the frames outward of it are the C
     * library's start-up code, which HPCToolkit and perf users do not expect to see), or -1 if
     * main is not among the frames.
     */
    static int endAtMain(List<Frame> frames, int from, int end, Predicate<Frame> isMain) {
        for (int i = end - 1; i >= from; i--) {
            if (isMain.test(frames.get(i))) return i + 1;
        }
        return -1;
    }
}
