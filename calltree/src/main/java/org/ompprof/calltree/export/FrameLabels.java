package org.ompprof.calltree.export;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;

/**
 * The text an export shows for each frame, and which frames look alike. Frames with equal
 * labels (a function sampled at two lines, when lines are not shown) become one frame of the
 * export, so every path of the output is unique.
 *
 * @param ofFrame label id per frame id
 * @param text label text per label id
 * @param kind frame kind per label id (of the first frame with that label)
 * @param rank position of each label id in the output order (by text, then kind)
 */
record FrameLabels(int[] ofFrame, String[] text, FrameKind[] kind, int[] rank) {
    /**
     * @param detailed {@code function (file:line)} rather than the function alone
     * @param annotate append async-profiler's type suffix to each label
     * @param keepKinds keep equal texts of different kinds apart (flame graphs color them apart)
     */
    static FrameLabels of(FrameTable frames, boolean detailed, boolean annotate, boolean keepKinds) {
        int[] ofFrame = new int[frames.size()];
        Map<String, Integer> ids = new HashMap<>();
        List<String> text = new ArrayList<>();
        List<FrameKind> kind = new ArrayList<>();
        for (int f = 0; f < ofFrame.length; f++) {
            Frame frame = frames.frame(f);
            String label = sanitize(detailed ? frame.detailedName() : frame.name())
                    + (annotate ? FrameTypes.suffix(frame.kind()) : "");
            String key = keepKinds ? label + '\0' + frame.kind().ordinal() : label;
            ofFrame[f] = ids.computeIfAbsent(key, k -> {
                text.add(label);
                kind.add(frame.kind());
                return text.size() - 1;
            });
        }
        String[] texts = text.toArray(String[]::new);
        FrameKind[] kinds = kind.toArray(FrameKind[]::new);
        return new FrameLabels(ofFrame, texts, kinds, ranks(texts, kinds));
    }

    private static int[] ranks(String[] text, FrameKind[] kind) {
        Integer[] order = new Integer[text.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.<Integer, String>comparing(i -> text[i]).thenComparing(i -> kind[i]));
        int[] rank = new int[text.length];
        for (int r = 0; r < order.length; r++) rank[order[r]] = r;
        return rank;
    }

    /**
     * Makes a name safe for one field of a collapsed line: ';' separates frames there (replaced
     * by ':', as Brendan Gregg's stackcollapse scripts do) and a line break would end the line.
     */
    static String sanitize(String name) {
        if (name.isEmpty()) return "<empty>";
        return name.replace(';', ':').replace('\n', ' ').replace('\r', ' ');
    }
}
