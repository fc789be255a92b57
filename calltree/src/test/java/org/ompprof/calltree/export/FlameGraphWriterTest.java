package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import one.convert.Arguments;
import one.convert.FlameGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.PaperExample;

class FlameGraphWriterTest {
    private final PaperExample ex = new PaperExample();

    @Test
    void pageIsCompleteHtmlWithEscapedTitleAndOurLegend() throws IOException {
        String html = FlameGraphWriter.toHtml(ex.tree, FlameGraphOptions.titled("lulesh <s 30> & more"));
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.strip().endsWith("</html>"));
        assertTrue(html.contains("<h1>lulesh &lt;s 30&gt; &amp; more</h1>"));
        assertTrue(html.contains("<title>lulesh &lt;s 30&gt; &amp; more</title>"));
        assertTrue(html.contains(">User code</dd>"));
        assertTrue(html.contains(">OpenMP runtime</dd>"));
        assertTrue(html.contains(">Placeholder</dd>"));
        assertFalse(html.contains("Java compiled"));
        assertTrue(html.contains("</script></body></html>"));
    }

    @Test
    void embeddedDataHoldsEveryFrameName() throws IOException {
        List<String> cpool =
                FlameGraphPages.constantPool(FlameGraphWriter.toHtml(ex.tree, FlameGraphOptions.titled("t")));
        for (String name :
                List.of("main", "init", "solve", "compute", "exchange", "kernel", "__kmpc_barrier", "<omp idle>")) {
            assertTrue(cpool.contains(name), name + " in " + cpool);
        }
    }

    @Test
    void asyncProfilerReadsThePageBackWithOurPathsValuesAndFrameTypes() throws IOException {
        String html = FlameGraphWriter.toHtml(ex.tree, FlameGraphOptions.titled("t"));
        String expected =
                CollapsedWriter.toString(ex.tree, CollapsedOptions.defaults().withAnnotatedKinds(true));
        assertEquals(lines(expected), lines(readBack(html)));
    }

    @Test
    void inlinedFramesKeepTheirOwnColor() throws IOException {
        CallingContextTree tree = CallingContextTree.create();
        int main = tree.frames().intern(Frame.of(FrameKind.USER, "app", "main", null, 0));
        int inl = tree.frames().intern(Frame.of(FrameKind.INLINED, "app", "axpy", null, 0));
        tree.addSample(0, new int[] {main, inl}, 0x001, 5);
        String html = FlameGraphWriter.toHtml(tree, FlameGraphOptions.titled("t"));
        assertEquals(Set.of("main_[j];axpy_[i] 1"), lines(readBack(html)));
    }

    @Test
    void threadFilterMetricAndUnits() throws IOException {
        String html = FlameGraphWriter.toHtml(
                ex.tree, FlameGraphOptions.titled("t").withMetric("time").withThread(1));
        assertFalse(FlameGraphPages.constantPool(html).contains("init"));
        assertTrue(html.contains("+ ' ns'"));
        assertEquals(
                lines(CollapsedWriter.toString(
                        ex.tree,
                        CollapsedOptions.defaults()
                                .withMetric("time")
                                .withThread(1)
                                .withAnnotatedKinds(true))),
                lines(readBack(html)));
    }

    @Test
    void detailedNamesInvertedAndMinWidth() throws IOException {
        FlameGraphOptions options = FlameGraphOptions.titled("t")
                .withDetailedNames(true)
                .withInverted(true)
                .withMinWidthPercent(10);
        String html = FlameGraphWriter.toHtml(ex.tree, options);
        assertTrue(html.contains("let inverted = true;"));
        Set<String> drawn = lines(readBack(html));
        assertTrue(drawn.toString().contains("kernel (kernel.c:99)_[j]"));
        // the converter keeps frames of at least (long) (27 * 10%) = 2 samples: <omp idle> (1) is left out
        assertFalse(drawn.toString().contains("<omp idle>"), drawn.toString());
        assertTrue(drawn.toString().contains("exchange"), drawn.toString());
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, 3, 10, 40})
    void foldingSmallFramesDrawsWhatTheConvertersOwnMinWidthDraws(double percent) throws IOException {
        String ours =
                FlameGraphWriter.toHtml(ex.tree, FlameGraphOptions.titled("t").withMinWidthPercent(percent));
        Arguments args = new Arguments();
        args.minwidth = percent;
        FlameGraph converter = new FlameGraph(args);
        converter.parseCollapsed(new StringReader(
                CollapsedWriter.toString(ex.tree, CollapsedOptions.defaults().withAnnotatedKinds(true))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        converter.dump(bytes);
        assertEquals(lines(readBack(bytes.toString(StandardCharsets.UTF_8))), lines(readBack(ours)));
    }

    @Test
    void emptyTreeGivesAPageToo() throws IOException {
        String html = FlameGraphWriter.toHtml(CallingContextTree.create(), FlameGraphOptions.titled("nothing"));
        assertTrue(html.contains("<h1>nothing</h1>"));
        assertTrue(html.strip().endsWith("</html>"));
    }

    @Test
    void writeLeavesTheStreamOpen() throws IOException {
        boolean[] closed = {false};
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        FlameGraphWriter.write(ex.tree, FlameGraphOptions.titled("t"), out);
        assertFalse(closed[0]);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("<h1>t</h1>"));
    }

    /** async-profiler's own reading of the page, written back as its collapsed stacks. */
    private static String readBack(String html) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        FlameGraph graph = new FlameGraph(args);
        graph.parseHtml(new StringReader(html));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        graph.dump(print);
        print.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static Set<String> lines(String text) {
        return new TreeSet<>(Arrays.asList(text.split("\n")));
    }
}
