package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.PaperExample;

class CollapsedWriterTest {
    private final PaperExample ex = new PaperExample();

    @Test
    void samplesOfAllThreads() {
        assertEquals("""
                main 1
                main;init 2
                main;solve;<omp idle> 1
                main;solve;__kmpc_barrier 3
                main;solve;compute 8
                main;solve;compute;kernel 10
                main;solve;exchange;kernel 2
                """, CollapsedWriter.toString(ex.tree, CollapsedOptions.defaults()));
    }

    @Test
    void timeOfOneThread() {
        assertEquals(
                """
                main;solve;<omp idle> 1000000
                main;solve;compute 3000000
                main;solve;compute;kernel 6000000
                main;solve;exchange;kernel 2000000
                """,
                CollapsedWriter.toString(
                        ex.tree, CollapsedOptions.defaults().withMetric("time").withThread(1)));
    }

    @Test
    void stateMetricLeavesOutPathsWithoutIt() {
        assertEquals(
                "main;solve;__kmpc_barrier 3000000\n",
                CollapsedWriter.toString(ex.tree, CollapsedOptions.defaults().withMetric("time.barrier")));
    }

    @Test
    void detailedAndAnnotatedNames() {
        String text = CollapsedWriter.toString(
                ex.tree, CollapsedOptions.defaults().withDetailedNames(true).withAnnotatedKinds(true));
        assertEquals("""
                main (app.c:10)_[j] 1
                main (app.c:10)_[j];init (app.c:20)_[j] 2
                main (app.c:10)_[j];solve (solve.c:5)_[j];<omp idle>_[k] 1
                main (app.c:10)_[j];solve (solve.c:5)_[j];__kmpc_barrier 3
                main (app.c:10)_[j];solve (solve.c:5)_[j];compute (solve.c:42)_[j] 8
                main (app.c:10)_[j];solve (solve.c:5)_[j];compute (solve.c:42)_[j];kernel (kernel.c:99)_[j] 10
                main (app.c:10)_[j];solve (solve.c:5)_[j];exchange (halo.c:7)_[j];kernel (kernel.c:99)_[j] 2
                """, text);
    }

    @Test
    void separatorsAndLineBreaksInNamesAreSanitized() {
        CallingContextTree tree = CallingContextTree.create();
        int odd = tree.frames().intern(Frame.of(FrameKind.USER, "app", "operator;\nweird\r", null, 0));
        int main = tree.frames().intern(Frame.of(FrameKind.USER, "app", "main", null, 0));
        tree.addSample(0, new int[] {main, odd}, 0, 1);
        assertEquals("main;operator: weird  1\n", CollapsedWriter.toString(tree, CollapsedOptions.defaults()));
    }

    @Test
    void framesThatLookAlikeAreMergedSoPathsAreUnique() {
        CallingContextTree tree = CallingContextTree.create();
        int main = tree.frames().intern(Frame.of(FrameKind.USER, "app", "main", "a.c", 1));
        int f10 = tree.frames().intern(Frame.of(FrameKind.USER, "app", "f", "a.c", 10));
        int f20 = tree.frames().intern(Frame.of(FrameKind.USER, "app", "f", "a.c", 20));
        tree.addSample(0, new int[] {main, f10}, 0, 1);
        tree.addSample(1, new int[] {main, f20}, 0, 1);
        tree.addSample(1, new int[] {main, f20}, 0, 1);
        assertEquals("main;f 3\n", CollapsedWriter.toString(tree, CollapsedOptions.defaults()));
        assertEquals(
                "main (a.c:1);f (a.c:10) 1\nmain (a.c:1);f (a.c:20) 2\n",
                CollapsedWriter.toString(tree, CollapsedOptions.defaults().withDetailedNames(true)));
    }

    @Test
    void valuesAtTheRootAndNegativeValuesAreWrittenToo() {
        CallingContextTree tree = CallingContextTree.create();
        int main = tree.frames().intern(Frame.of(FrameKind.USER, "app", "main", null, 0));
        tree.add(CallingContextTree.ROOT, 0, 0, 4);
        tree.add(tree.path(new int[] {main}), 0, 0, -2);
        assertEquals("<root> 4\nmain -2\n", CollapsedWriter.toString(tree, CollapsedOptions.defaults()));
    }

    @Test
    void unknownMetricIsAClearError() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CollapsedWriter.toString(
                        ex.tree, CollapsedOptions.defaults().withMetric("tme")));
        assertEquals(true, e.getMessage().startsWith("unknown metric 'tme'"));
    }

    @Test
    void emptyTreeGivesEmptyText() {
        assertEquals("", CollapsedWriter.toString(CallingContextTree.create(), CollapsedOptions.defaults()));
    }
}
