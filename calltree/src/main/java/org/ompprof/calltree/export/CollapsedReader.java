package org.ompprof.calltree.export;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;

/**
 * Reads collapsed stacks ({@code a;b;c 123} per line) into a tree, for importing other tools'
 * output and for checking our own. Each name becomes a frame with that function name: a
 * placeholder if it reads {@code <...>}, otherwise a user frame, or, for annotated input, the
 * kind its async-profiler suffix says.
 */
public final class CollapsedReader {
    private CollapsedReader() {}

    /**
     * Adds each line's value to {@code metric} (a name) on {@code thread}.
     *
     * @throws IllegalArgumentException naming the line, for a line that is not {@code frames value}
     */
    public static void read(Reader in, CallingContextTree tree, String metric, int thread, boolean annotated)
            throws IOException {
        int metricIndex = tree.metrics().require(metric).index();
        Map<String, Integer> frameIds = new HashMap<>();
        IntArrayList path = new IntArrayList();
        BufferedReader lines = new BufferedReader(in);
        int lineNumber = 0;
        for (String line; (line = lines.readLine()) != null; ) {
            lineNumber++;
            if (line.isBlank()) continue;
            int space = line.lastIndexOf(' ');
            if (space <= 0) throw badLine(lineNumber, "no value after the frames");
            long value = parseValue(line.substring(space + 1), lineNumber);
            path.clear();
            String frames = line.substring(0, space);
            if (!frames.equals(CollapsedWriter.ROOT_LABEL)) {
                for (String name : frames.split(";", -1)) {
                    path.add(frameIds.computeIfAbsent(name, n -> tree.frames().intern(frameOf(n, annotated))));
                }
            }
            tree.add(tree.path(path.toArray()), thread, metricIndex, value);
        }
    }

    private static long parseValue(String text, int lineNumber) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw badLine(lineNumber, "'" + text + "' is not a whole number");
        }
    }

    private static IllegalArgumentException badLine(int lineNumber, String why) {
        return new IllegalArgumentException("collapsed stacks, line " + lineNumber + ": " + why);
    }

    private static Frame frameOf(String label, boolean annotated) {
        FrameKind kind = annotated ? FrameTypes.kindOfSuffixed(label) : FrameKind.USER;
        String name = annotated ? FrameTypes.stripSuffix(label, kind) : label;
        if (!annotated && name.startsWith("<") && name.endsWith(">")) kind = FrameKind.PLACEHOLDER;
        return kind == FrameKind.PLACEHOLDER ? Frame.placeholder(name) : Frame.of(kind, null, name, null, 0);
    }
}
