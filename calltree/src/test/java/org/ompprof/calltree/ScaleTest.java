package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ompprof.calltree.export.CollapsedOptions;
import org.ompprof.calltree.export.CollapsedWriter;
import org.ompprof.calltree.export.FlameGraphOptions;
import org.ompprof.calltree.export.FlameGraphWriter;

/**
 * Prints how long building a tree of about a million nodes takes, and what it holds in memory.
 * Asserts nothing about time (speed goals live in benchmarks); checks only that nothing was
 * lost. A million nodes from 2M samples by default; {@code -Dompprof.calltree.scale.samples=10000000}
 * for the full size. Path generation is included in the times (it is a small part).
 */
class ScaleTest {
    private static final int NODES = Integer.getInteger("ompprof.calltree.scale.nodes", 1_000_000);
    private static final long SAMPLES = Long.getLong("ompprof.calltree.scale.samples", 2_000_000);
    private static final int THREADS = 256;
    private static final int FRAMES = 50_000;
    private static final int[] STATES = {0x001, 0x001, 0x001, 0x001, 0x011, 0x012, 0x100, 0x042, 0x000};

    /** A random recursive tree: parents drawn uniformly, so depths are like real profiles' (mean ~ln n). */
    private record Shape(int[] parent, int[] frame, int maxDepth) {
        static Shape random(Random random, int nodes, int frames) {
            int[] parent = new int[nodes];
            int[] frame = new int[nodes];
            int[] depth = new int[nodes];
            int maxDepth = 0;
            parent[0] = -1;
            for (int i = 1; i < nodes; i++) {
                parent[i] = random.nextInt(i);
                frame[i] = random.nextInt(frames);
                depth[i] = depth[parent[i]] + 1;
                maxDepth = Math.max(maxDepth, depth[i]);
            }
            return new Shape(parent, frame, maxDepth);
        }

        /** Writes node's frame path, root first, into buffer; returns its length. */
        int path(int node, int[] buffer) {
            int n = 0;
            for (int v = node; v > 0; v = parent[v]) buffer[n++] = frame[v];
            for (int i = 0, j = n - 1; i < j; i++, j--) {
                int t = buffer[i];
                buffer[i] = buffer[j];
                buffer[j] = t;
            }
            return n;
        }
    }

    @Test
    void buildAMillionNodeTree() throws IOException {
        Shape shape = Shape.random(new Random(2025), NODES, FRAMES);
        long before = usedHeap();
        CallingContextTree tree = CallingContextTree.create();
        for (int f = 0; f < FRAMES; f++) tree.frames().intern(Frame.of(FrameKind.USER, "app", "f" + f, "f.c", f));
        Feeder feeder = new Feeder(tree, shape, new Random(7));

        long creating = feeder.eachNodeOnce();
        long rest = Math.max(0, SAMPLES - (NODES - 1));
        long local = feeder.withLocality(rest - rest / 10);
        long uniform = feeder.uniform(rest / 10);
        long after = usedHeap();

        report(
                "%,d nodes (max depth %d), %,d (node, thread) value pairs, %d threads, from %,d samples:",
                tree.size(), shape.maxDepth(), tree.valuePairs(), tree.threads().length, SAMPLES);
        report("  every node once, creating it: %s", rate(creating, NODES - 1));
        report("  runs of samples per thread, hot paths (like a real profile): %s", rate(local, rest - rest / 10));
        report("  uniformly random nodes (worst case, no locality): %s", rate(uniform, rest / 10));
        report(
                "retained heap: %,d MB (%,.0f bytes per node)",
                (after - before) >> 20, (double) (after - before) / tree.size());
        assertEquals(SAMPLES, tree.total(StandardMetrics.SAMPLES));
        assertTrue(tree.size() <= NODES);
        queries(tree);
        exports(tree);
    }

    private static String rate(long ns, long samples) {
        return samples == 0
                ? "-"
                : String.format(
                        "%,d samples in %,d ms, %,.0f ns per sample", samples, ns / 1_000_000, (double) ns / samples);
    }

    /** Feeds samples the way the stitcher will: a root-first frame path per sample, in a reused buffer. */
    private static final class Feeder {
        private final CallingContextTree tree;
        private final Shape shape;
        private final Random random;
        private final int[] buffer;
        private final int[] permutation;

        Feeder(CallingContextTree tree, Shape shape, Random random) {
            this.tree = tree;
            this.shape = shape;
            this.random = random;
            this.buffer = new int[shape.maxDepth() + 1];
            this.permutation = shuffled(shape.parent().length, random);
        }

        private static int[] shuffled(int n, Random random) {
            int[] p = new int[n - 1];
            for (int i = 0; i < p.length; i++) p[i] = i + 1;
            for (int i = p.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
            return p;
        }

        long eachNodeOnce() {
            long start = System.nanoTime();
            for (int node : permutation) sample(node, (node * 31 + random.nextInt(3)) % THREADS);
            return System.nanoTime() - start;
        }

        /** Runs of 16 samples per thread; a thread stays on its path 4 times in 5, else moves to a hot one. */
        long withLocality(long samples) {
            int[] current = new int[THREADS];
            int thread = 0;
            long start = System.nanoTime();
            for (long s = 0; s < samples; s++) {
                if (s % 16 == 0) thread = random.nextInt(THREADS);
                if (current[thread] == 0 || random.nextInt(5) == 0) current[thread] = hot();
                sample(current[thread], thread);
            }
            return System.nanoTime() - start;
        }

        /** Skewed toward a few nodes, as sampled time is: rank = n * u^3. */
        private int hot() {
            double u = random.nextDouble();
            return permutation[(int) (permutation.length * u * u * u)];
        }

        long uniform(long samples) {
            long start = System.nanoTime();
            for (long s = 0; s < samples; s++) {
                int node = permutation[random.nextInt(permutation.length)];
                sample(node, (node * 31 + random.nextInt(3)) % THREADS);
            }
            return System.nanoTime() - start;
        }

        private void sample(int node, int thread) {
            int length = shape.path(node, buffer);
            tree.addSampleAt(tree.path(buffer, length), thread, STATES[random.nextInt(STATES.length)], 1_000_000);
        }
    }

    private static void queries(CallingContextTree tree) {
        long start = System.nanoTime();
        long total = tree.inclusive(CallingContextTree.ROOT, StandardMetrics.TIME);
        long inclusiveNs = System.nanoTime() - start;
        start = System.nanoTime();
        long one = tree.inclusive(CallingContextTree.ROOT, 5, StandardMetrics.TIME);
        long threadNs = System.nanoTime() - start;
        start = System.nanoTime();
        ThreadValues byThread = tree.inclusiveByThread(tree.roots()[0], StandardMetrics.TIME);
        long byThreadNs = System.nanoTime() - start;
        report(
                "first inclusive query (all nodes, summed): %,d ms; one thread: %,d ms; a node by thread (%d "
                        + "threads): %,d ms",
                inclusiveNs / 1_000_000, threadNs / 1_000_000, byThread.size(), byThreadNs / 1_000_000);
        assertEquals(SAMPLES * 1_000_000, total);
        assertEquals(tree.total(StandardMetrics.TIME, 5), one);
    }

    private static void exports(CallingContextTree tree) throws IOException {
        long[] chars = {0};
        Writer counting = new Writer() {
            @Override
            public void write(char[] buf, int off, int len) {
                chars[0] += len;
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        long start = System.nanoTime();
        CollapsedWriter.write(tree, CollapsedOptions.defaults(), counting);
        long collapsedNs = System.nanoTime() - start;
        start = System.nanoTime();
        String html =
                FlameGraphWriter.toHtml(tree, FlameGraphOptions.titled("scale").withMinWidthPercent(0.01));
        long htmlNs = System.nanoTime() - start;
        report(
                "collapsed export: %,d MB in %,d ms; HTML flame graph (frames >= 0.01%%): %,d KB in %,d ms",
                chars[0] >> 20, collapsedNs / 1_000_000, html.length() >> 10, htmlNs / 1_000_000);
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void report(String format, Object... args) {
        System.out.println("[calltree scale] " + String.format(format, args));
    }
}
