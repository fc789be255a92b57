package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CallingContextTreeTest {
    private static final int SAMPLES = StandardMetrics.SAMPLES;
    private static final int TIME = StandardMetrics.TIME;

    private final PaperExample ex = new PaperExample();
    private final CallingContextTree tree = ex.tree;

    @Test
    void exclusiveSamplesMatchTheHandCount() {
        assertEquals(1, tree.exclusive(ex.node(ex.main), SAMPLES));
        assertEquals(2, tree.exclusive(ex.node(ex.main, ex.init), SAMPLES));
        assertEquals(0, tree.exclusive(ex.node(ex.main, ex.solve), SAMPLES));
        assertEquals(8, tree.exclusive(ex.node(ex.main, ex.solve, ex.compute), SAMPLES));
        assertEquals(10, tree.exclusive(ex.node(ex.main, ex.solve, ex.compute, ex.kernel), SAMPLES));
        assertEquals(2, tree.exclusive(ex.node(ex.main, ex.solve, ex.exchange, ex.kernel), SAMPLES));
        assertEquals(3, tree.exclusive(ex.node(ex.main, ex.solve, ex.barrier), SAMPLES));
    }

    @Test
    void inclusiveSamplesMatchTheHandCount() {
        assertEquals(27, tree.inclusive(ex.node(ex.main), SAMPLES));
        assertEquals(24, tree.inclusive(ex.node(ex.main, ex.solve), SAMPLES));
        assertEquals(18, tree.inclusive(ex.node(ex.main, ex.solve, ex.compute), SAMPLES));
        assertEquals(2, tree.inclusive(ex.node(ex.main, ex.solve, ex.exchange), SAMPLES));
        assertEquals(27, tree.total(SAMPLES));
    }

    @Test
    void perThreadValuesMatchTheHandCount() {
        int compute = ex.node(ex.main, ex.solve, ex.compute);
        assertEquals(5, tree.exclusive(compute, 0, SAMPLES));
        assertEquals(3, tree.exclusive(compute, 1, SAMPLES));
        assertEquals(9, tree.inclusive(compute, 0, SAMPLES));
        assertEquals(9, tree.inclusive(compute, 1, SAMPLES));
        assertEquals(12, tree.inclusive(ex.node(ex.main, ex.solve), 0, SAMPLES));
        assertEquals(12, tree.inclusive(ex.node(ex.main, ex.solve), 1, SAMPLES));
        assertEquals(15, tree.inclusive(ex.node(ex.main), 0, SAMPLES));
        assertEquals(15, tree.total(SAMPLES, 0));
        assertEquals(12, tree.total(SAMPLES, 1));
        assertEquals(0, tree.inclusive(ex.node(ex.main), 7, SAMPLES));
        assertArrayEquals(new int[] {0, 1}, tree.threads());
    }

    @Test
    void inclusiveIsExclusivePlusChildrenForEveryNodeThreadAndMetric() {
        for (int metric = 0; metric < tree.metrics().size(); metric++) {
            for (int node = 0; node < tree.size(); node++) {
                assertEquals(tree.exclusive(node, metric) + childSum(node, -1, metric), tree.inclusive(node, metric));
                for (int thread : tree.threads()) {
                    assertEquals(
                            tree.exclusive(node, thread, metric) + childSum(node, thread, metric),
                            tree.inclusive(node, thread, metric));
                }
            }
        }
    }

    private long childSum(int node, int thread, int metric) {
        long sum = 0;
        for (int c : tree.children(node))
            sum += thread < 0 ? tree.inclusive(c, metric) : tree.inclusive(c, thread, metric);
        return sum;
    }

    @Test
    void stateTimesPartitionTimeAndBarrierKindsRefineTheBarrierGroup() {
        MetricRegistry m = tree.metrics();
        assertEquals(27 * PaperExample.MS, tree.total(TIME));
        assertEquals(
                3 * PaperExample.MS, tree.total(m.require("time.work_serial").index()));
        assertEquals(
                20 * PaperExample.MS, tree.total(m.require("time.work_parallel").index()));
        assertEquals(3 * PaperExample.MS, tree.total(m.require("time.barrier").index()));
        assertEquals(
                3 * PaperExample.MS,
                tree.total(m.require("time.barrier.implicit_parallel").index()));
        assertEquals(1 * PaperExample.MS, tree.total(m.require("time.idle").index()));
        long topLevel = 0;
        for (Metric metric : m.all()) {
            if (metric.hasParent() && m.metric(metric.parent()).name().equals("time"))
                topLevel += tree.total(metric.index());
        }
        assertEquals(tree.total(TIME), topLevel);
    }

    @Test
    void shapeQueries() {
        int kernel = ex.node(ex.main, ex.solve, ex.compute, ex.kernel);
        assertEquals(4, tree.depth(kernel));
        assertArrayEquals(new int[] {ex.main, ex.solve, ex.compute, ex.kernel}, tree.framePath(kernel));
        int[] up = tree.pathToRoot(kernel);
        assertEquals(kernel, up[0]);
        assertEquals(ex.node(ex.main), up[3]);
        assertArrayEquals(new int[] {ex.node(ex.main)}, tree.roots());
        assertArrayEquals(
                new int[] {ex.node(ex.main, ex.init), ex.node(ex.main, ex.solve)}, tree.children(ex.node(ex.main)));
        assertEquals(-1, tree.find(new int[] {ex.kernel}));
        assertEquals(CallingContextTree.ROOT, tree.path(new int[0]));
        assertEquals(10, tree.size());
        assertEquals("kernel", tree.frameOf(kernel).name());
    }

    @Test
    void addingAfterAQueryInvalidatesCachedSums() {
        int init = ex.node(ex.main, ex.init);
        assertEquals(27, tree.inclusive(ex.node(ex.main), SAMPLES));
        assertEquals(2, tree.inclusive(init, 0, SAMPLES));
        tree.addSampleAt(init, 0, 0x000, PaperExample.MS);
        int deeper = tree.child(init, ex.kernel);
        tree.add(deeper, 3, SAMPLES, 5);
        assertEquals(33, tree.inclusive(ex.node(ex.main), SAMPLES));
        assertEquals(3, tree.inclusive(init, 0, SAMPLES));
        assertEquals(5, tree.inclusive(init, 3, SAMPLES));
        assertEquals(5, tree.exclusive(deeper, SAMPLES));
    }

    @Test
    void extraMetricsCanBeRegisteredAfterValuesExist() {
        Metric blame = tree.metrics()
                .register(
                        "idle_blame",
                        MetricUnit.NANOSECONDS,
                        "idleness blamed on this context",
                        MetricStorage.SPARSE,
                        null);
        int kernel = ex.node(ex.main, ex.solve, ex.compute, ex.kernel);
        tree.add(kernel, 1, blame.index(), 700);
        assertEquals(700, tree.inclusive(ex.node(ex.main), blame.index()));
        assertEquals(700, tree.exclusive(kernel, 1, blame.index()));
    }

    @Test
    void leafFirstAndRootFirstPathsMeetTheSameNodes() {
        int[] rootFirst = {ex.main, ex.solve, ex.compute, ex.kernel};
        int[] leafFirst = {ex.kernel, ex.compute, ex.solve, ex.main, 12345};
        int node = ex.node(rootFirst);
        assertEquals(node, tree.pathLeafFirst(leafFirst, 4));
        assertEquals(ex.node(ex.main, ex.solve), tree.path(rootFirst, 2));
        assertEquals(node, tree.path(rootFirst));
        assertEquals(
                ex.node(ex.main, ex.solve, ex.exchange),
                tree.pathLeafFirst(new int[] {ex.exchange, ex.solve, ex.main}, 3));
        assertEquals(10, tree.size());
    }

    @Test
    void aBadFrameIdInThePathLeavesLaterLookUpsRight() {
        int size = tree.size();
        assertThrows(IllegalArgumentException.class, () -> tree.path(new int[] {ex.init, ex.kernel, 999}));
        assertEquals(size + 2, tree.size(), "the good prefix was made");
        int made = tree.find(new int[] {ex.init, ex.kernel});
        assertEquals(made, tree.path(new int[] {ex.init, ex.kernel}));
        assertEquals(ex.node(ex.main, ex.init), tree.path(new int[] {ex.main, ex.init}));
        assertEquals(made, tree.path(new int[] {ex.init, ex.kernel}));
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> tree.add(0, CallingContextTree.MAX_THREAD + 1, SAMPLES, 1));
        assertThrows(IllegalArgumentException.class, () -> tree.add(0, -1, SAMPLES, 1));
        assertThrows(IllegalArgumentException.class, () -> tree.add(0, 0, 999, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> tree.add(tree.size(), 0, SAMPLES, 1));
        assertThrows(IllegalArgumentException.class, () -> tree.child(0, -5));
        assertThrows(
                IllegalArgumentException.class,
                () -> tree.child(0, tree.frames().size()));
        assertThrows(IllegalArgumentException.class, () -> tree.addAll(tree));
    }
}
