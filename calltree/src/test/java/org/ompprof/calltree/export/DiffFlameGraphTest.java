package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.merge.ProfileDiff;

class DiffFlameGraphTest {
    private static void sample(CallingContextTree tree, int times, String... functions) {
        int[] path = new int[functions.length];
        for (int i = 0; i < path.length; i++)
            path[i] = tree.frames().intern(Frame.of(FrameKind.USER, "app", functions[i], null, 0));
        for (int i = 0; i < times; i++) tree.addSample(1, path, 0x1, 1_000_000);
    }

    @Test
    void colorsSayWhatGrewShrankOrIsNew() throws IOException {
        CallingContextTree a = CallingContextTree.create(), b = CallingContextTree.create();
        sample(a, 10, "main", "slower");
        sample(a, 30, "main", "faster");
        sample(a, 5, "main", "same");
        sample(a, 7, "main", "gone");
        sample(b, 25, "main", "slower");
        sample(b, 12, "main", "faster");
        sample(b, 5, "main", "same");
        sample(b, 4, "main", "new");
        CallingContextTree diff = ProfileDiff.of(a, b).tree();
        String html = FlameGraphWriter.toDiffHtml(diff, FlameGraphOptions.titled("diff"), ProfileDiff.BASE + "samples");
        Matcher max = Pattern.compile("const maxdiff = (\\d+);").matcher(html);
        assertTrue(max.find(), "the converter's diff mode is on");
        assertEquals(18, Long.parseLong(max.group(1)), "the largest change of a frame's own samples: faster, 30 -> 12");
        assertTrue(html.contains("\nd=15\n"), "slower: 10 -> 25 samples of its own");
        assertTrue(html.contains("\nd=-18\n"), "faster");
        assertTrue(html.contains("\nd=U\n"), "new: not in the base");
        assertTrue(html.contains(">Grew</dd>"));
        assertTrue(html.contains(">Not in the base</dd>"));
    }
}
