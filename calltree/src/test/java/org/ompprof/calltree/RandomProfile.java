package org.ompprof.calltree;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random profiles: samples on few frames (so paths share prefixes and recurse), a few
 * threads plus the largest thread number, every OMPT state code plus an unknown one, and
 * direct additions of an extra (blame-like) metric, some negative.
 */
public final class RandomProfile {
    static final String BLAME = "idle_blame";
    private static final int[] STATES = {
        0x000, 0x001, 0x002, 0x010, 0x011, 0x012, 0x013, 0x014, 0x015, 0x016, 0x020, 0x021, 0x040, 0x041, 0x042, 0x043,
        0x044, 0x080, 0x081, 0x082, 0x100, 0x101, 0x102, 0x7777
    };

    record Sample(int thread, List<Frame> path, int state, long weight) {}

    record Addition(int thread, List<Frame> path, String metric, long value) {}

    final List<Sample> samples = new ArrayList<>();
    final List<Addition> additions = new ArrayList<>();

    public RandomProfile(long seed, int sampleCount) {
        Random random = new Random(seed);
        List<Frame> pool = framePool(random);
        for (int i = 0; i < sampleCount; i++) {
            List<Frame> path = randomPath(random, pool);
            int thread = random.nextInt(20) == 0 ? CallingContextTree.MAX_THREAD : random.nextInt(5);
            if (random.nextInt(6) == 0) {
                additions.add(new Addition(thread, path, BLAME, random.nextInt(2001) - 500));
            } else {
                samples.add(new Sample(
                        thread, path, STATES[random.nextInt(STATES.length)], random.nextInt(3) * 1_000_000L));
            }
        }
    }

    private static List<Frame> framePool(Random random) {
        List<Frame> pool = new ArrayList<>();
        for (int i = 0; i < 6; i++) pool.add(Frame.of(FrameKind.USER, "app", "f" + i, "f.c", random.nextInt(3)));
        pool.add(Frame.of(FrameKind.RUNTIME, "libomp.so.5", "__kmp_barrier", null, 0));
        pool.add(Frame.unresolved(FrameKind.USER, "libm.so.6", 0x40));
        pool.add(Frame.OMP_IDLE);
        return pool;
    }

    private static List<Frame> randomPath(Random random, List<Frame> pool) {
        int depth = random.nextInt(30) == 0 ? 0 : 1 + random.nextInt(7);
        List<Frame> path = new ArrayList<>();
        for (int i = 0; i < depth; i++) path.add(pool.get(random.nextInt(i == 0 ? 2 : pool.size())));
        return path;
    }

    /** Builds the profile into {@code tree} through the public builder API. */
    public void buildInto(CallingContextTree tree) {
        int blame = tree.metrics()
                .register(BLAME, MetricUnit.NANOSECONDS, "", MetricStorage.SPARSE, null)
                .index();
        for (Sample s : samples) tree.addSample(s.thread(), ids(tree, s.path()), s.state(), s.weight());
        for (Addition a : additions) tree.add(tree.path(ids(tree, a.path())), a.thread(), blame, a.value());
    }

    public void buildInto(NaiveTree naive) {
        for (Sample s : samples) naive.addSample(s.thread(), s.path(), s.state(), s.weight());
        for (Addition a : additions) naive.add(a.path(), a.thread(), a.metric(), a.value());
    }

    static int[] ids(CallingContextTree tree, List<Frame> path) {
        return path.stream().mapToInt(tree.frames()::intern).toArray();
    }
}
