package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.PaperExample;
import org.ompprof.calltree.StandardMetrics;

class CollapsedRoundTripTest {
    @Test
    void paperExampleSurvivesWriteReadWrite() throws IOException {
        roundTrip(new PaperExample().tree, CollapsedOptions.defaults());
        roundTrip(
                new PaperExample().tree,
                CollapsedOptions.defaults().withMetric("time").withAnnotatedKinds(true));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomTreesSurviveWriteReadWrite(long seed) throws IOException {
        CallingContextTree tree = randomTree(new Random(seed));
        roundTrip(tree, CollapsedOptions.defaults());
        roundTrip(
                tree,
                CollapsedOptions.defaults().withMetric("time").withThread(1).withAnnotatedKinds(true));
    }

    /** Text equal after a round trip, and the re-read tree has the same total and per-path sums. */
    private static void roundTrip(CallingContextTree tree, CollapsedOptions options) throws IOException {
        String text = CollapsedWriter.toString(tree, options);
        CallingContextTree back = CallingContextTree.create();
        CollapsedReader.read(new StringReader(text), back, options.metric(), 0, options.annotateKinds());
        CollapsedOptions plain = options.withThreads(t -> true);
        assertEquals(text, CollapsedWriter.toString(back, plain));
        int metric = tree.metrics().require(options.metric()).index();
        long[] exclusive = tree.exclusiveByNode(metric, options.threads());
        long total = 0;
        for (long v : exclusive) total += v;
        assertEquals(total, back.total(back.metrics().require(options.metric()).index()));
        assertEquals(lineSums(text), lineSums(CollapsedWriter.toString(back, plain)));
    }

    private static Map<String, Long> lineSums(String text) {
        Map<String, Long> out = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) continue;
            int space = line.lastIndexOf(' ');
            out.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
        }
        return out;
    }

    private static CallingContextTree randomTree(Random random) {
        CallingContextTree tree = CallingContextTree.create();
        FrameKind[] kinds = FrameKind.values();
        int[] frames = new int[12];
        for (int i = 0; i < frames.length; i++) {
            FrameKind kind = kinds[random.nextInt(kinds.length)];
            Frame f = kind == FrameKind.PLACEHOLDER
                    ? Frame.placeholder("<p" + i + ">")
                    : Frame.of(kind, "m", "fn" + i + (i % 3 == 0 ? " with space" : ""), null, 0);
            frames[i] = tree.frames().intern(f);
        }
        for (int s = 0; s < 500; s++) {
            int[] path = new int[1 + random.nextInt(6)];
            for (int i = 0; i < path.length; i++) path[i] = frames[random.nextInt(frames.length)];
            tree.addSample(random.nextInt(3), path, 0x001, 1 + random.nextInt(1000));
        }
        return tree;
    }

    @Test
    void malformedLinesAreReportedByNumber() {
        CallingContextTree tree = CallingContextTree.create();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CollapsedReader.read(
                        new StringReader("a;b 1\n\na;c x\n"), tree, StandardMetrics.SAMPLES_NAME, 0, false));
        assertEquals("collapsed stacks, line 3: 'x' is not a whole number", e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> CollapsedReader.read(new StringReader("lonely\n"), tree, StandardMetrics.SAMPLES_NAME, 0, false));
        assertEquals("collapsed stacks, line 1: no value after the frames", e.getMessage());
    }
}
