package org.ompprof.calltree.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.FlameGraph;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;

/**
 * Writes a tree as an interactive HTML flame graph made by async-profiler's converter
 * ({@code one.convert.FlameGraph}), so it looks and works like async-profiler's own: zoom,
 * search, invert, dark mode. Paths are handed to the converter through its stack API, each
 * frame with the type that colors it by kind (see the package comment). Only positive values
 * can be drawn; paths whose value is zero or negative are left out.
 */
public final class FlameGraphWriter {
    private FlameGraphWriter() {}

    /** Writes the page to {@code out}, which is left open. */
    public static void write(CallingContextTree tree, FlameGraphOptions options, OutputStream out) throws IOException {
        out.write(toHtml(tree, options).getBytes(StandardCharsets.UTF_8));
    }

    public static String toHtml(CallingContextTree tree, FlameGraphOptions options) throws IOException {
        Metric metric = tree.metrics().require(options.metric());
        FlameGraph graph = new FlameGraph(arguments(options));
        feed(tree, options, metric.index(), graph);
        return FlameGraphPage.adapt(render(graph), options.title(), metric.unit());
    }

    /**
     * A differential flame graph by the converter's own diff mode: frame widths are
     * {@code options.metric()} (the new profile), and each frame is colored by how its own value
     * changed from {@code baseMetric} (the base profile's): red grew, blue shrank, the deeper
     * the larger the change; grey unchanged; yellow not in the base at all. A context the new
     * profile no longer has at all cannot be drawn (a flame graph draws what is there); the
     * collapsed export of {@code delta.*} metrics lists those.
     */
    public static String toDiffHtml(CallingContextTree tree, FlameGraphOptions options, String baseMetric)
            throws IOException {
        Metric metric = tree.metrics().require(options.metric());
        Metric base = tree.metrics().require(baseMetric);
        FlameGraph now = new FlameGraph(arguments(options));
        FlameGraph before = new FlameGraph(arguments(options));
        feed(tree, options, metric.index(), now);
        feed(tree, options, base.index(), before);
        now.diff(before);
        return FlameGraphPage.adaptDiff(render(now), options.title(), metric.unit());
    }

    private static Arguments arguments(FlameGraphOptions options) {
        Arguments args = new Arguments();
        // the converter pastes the title into the page as it is
        args.title = FlameGraphPage.escapeHtml(options.title());
        args.inverted = options.inverted();
        args.minwidth = options.minWidthPercent();
        return args;
    }

    private static void feed(CallingContextTree tree, FlameGraphOptions options, int metric, FlameGraph graph)
            throws IOException {
        FrameLabels labels = FrameLabels.of(tree.frames(), options.detailedNames(), false, true);
        LabelTree projected = LabelTree.project(tree, labels, tree.exclusiveByNode(metric, options.threads()))
                .drawable(options.minWidthPercent());
        CallStack stack = new CallStack();
        if (projected.rootSelf() > 0) graph.addSample(stack, projected.rootSelf());
        projected.walk(new LabelTree.Visitor() {
            @Override
            public void enter(int label, long self) {
                stack.push(labels.text()[label], FrameTypes.converterType(labels.kind()[label]));
                if (self > 0) graph.addSample(stack, self);
            }

            @Override
            public void exit() {
                stack.pop();
            }
        });
    }

    private static String render(FlameGraph graph) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
        PrintStream print = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        graph.dump(print);
        print.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
