package org.ompprof.calltree;

/**
 * A small OpenMP-shaped profile in the style of the calling-context-tree papers: {@code kernel}
 * is reached in two contexts (from {@code compute} and from {@code exchange}), so it is two
 * nodes; thread 0 waits at an implicit barrier while thread 1 goes idle. Every sample weighs
 * 1 ms. Expected values are worked out by hand in the tests.
 */
public final class PaperExample {
    public static final long MS = 1_000_000;

    public final CallingContextTree tree = CallingContextTree.create();
    public final int main = tree.frames().intern(user("main", "app.c", 10));
    public final int init = tree.frames().intern(user("init", "app.c", 20));
    public final int solve = tree.frames().intern(user("solve", "solve.c", 5));
    public final int compute = tree.frames().intern(user("compute", "solve.c", 42));
    public final int exchange = tree.frames().intern(user("exchange", "halo.c", 7));
    public final int kernel = tree.frames().intern(user("kernel", "kernel.c", 99));
    public final int barrier =
            tree.frames().intern(Frame.of(FrameKind.RUNTIME, "libomp.so.5", "__kmpc_barrier", null, 0));
    public final int idle = tree.frames().intern(Frame.OMP_IDLE);

    public PaperExample() {
        sample(0, 1, 0x000, main);
        sample(0, 2, 0x000, main, init);
        sample(0, 5, 0x001, main, solve, compute);
        sample(1, 3, 0x001, main, solve, compute);
        sample(0, 4, 0x001, main, solve, compute, kernel);
        sample(1, 6, 0x001, main, solve, compute, kernel);
        sample(1, 2, 0x001, main, solve, exchange, kernel);
        sample(0, 3, 0x011, main, solve, barrier);
        sample(1, 1, 0x100, main, solve, idle);
    }

    static Frame user(String function, String file, int line) {
        return Frame.of(FrameKind.USER, "app", function, file, line);
    }

    private void sample(int thread, int count, int state, int... path) {
        for (int i = 0; i < count; i++) tree.addSample(thread, path, state, MS);
    }

    public int node(int... path) {
        int node = tree.find(path);
        if (node < 0) throw new AssertionError("no node for path");
        return node;
    }
}
