package org.ompprof.calltree.export;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Arrays;
import org.ompprof.calltree.CallingContextTree;

/**
 * Writes a tree as collapsed ("folded") stacks, the input of Brendan Gregg's flamegraph.pl,
 * speedscope and async-profiler's converter: one line per distinct path with a non-zero
 * exclusive value, frames outermost first separated by ';', then a space and the value, e.g.
 * {@code main;driver;leaf 123}. Lines come in depth-first order with siblings sorted by name,
 * so equal trees give equal text.
 */
public final class CollapsedWriter {
    /** The frame a value recorded at the tree's root (an empty path) is written under. */
    public static final String ROOT_LABEL = "<root>";

    private CollapsedWriter() {}

    public static void write(CallingContextTree tree, CollapsedOptions options, Writer out) throws IOException {
        int metric = tree.metrics().require(options.metric()).index();
        FrameLabels labels = FrameLabels.of(tree.frames(), options.detailedNames(), options.annotateKinds(), false);
        LabelTree projected = LabelTree.project(tree, labels, tree.exclusiveByNode(metric, options.threads()));
        if (projected.rootSelf() != 0)
            out.append(ROOT_LABEL)
                    .append(' ')
                    .append(Long.toString(projected.rootSelf()))
                    .append('\n');
        projected.walk(new LineVisitor(labels, out));
    }

    public static String toString(CallingContextTree tree, CollapsedOptions options) {
        StringWriter out = new StringWriter();
        try {
            write(tree, options, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Keeps the current path in one buffer: entering appends a frame, exiting cuts it off again. */
    private static final class LineVisitor implements LabelTree.Visitor {
        private final FrameLabels labels;
        private final Writer out;
        private final StringBuilder path = new StringBuilder(256);
        private int[] lengths = new int[64];
        private int depth;

        LineVisitor(FrameLabels labels, Writer out) {
            this.labels = labels;
            this.out = out;
        }

        @Override
        public void enter(int label, long self) throws IOException {
            if (depth == lengths.length) lengths = Arrays.copyOf(lengths, depth * 2);
            lengths[depth++] = path.length();
            if (depth > 1) path.append(';');
            path.append(labels.text()[label]);
            if (self != 0)
                out.append(path).append(' ').append(Long.toString(self)).append('\n');
        }

        @Override
        public void exit() {
            path.setLength(lengths[--depth]);
        }
    }
}
