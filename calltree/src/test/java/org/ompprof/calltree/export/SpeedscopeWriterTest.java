package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.profile.Timeline;

/** The speedscope export parses back with the schema's required fields, every stack and weight as in the timelines. */
class SpeedscopeWriterTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    @SuppressWarnings("unchecked")
    void matchesTheSchemaAndTheTimelines(long seed) throws Exception {
        Random r = new Random(seed);
        CallingContextTree tree = CallingContextTree.create();
        List<Integer> nodes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int[] ids = new int[1 + r.nextInt(5)];
            for (int k = 0; k < ids.length; k++)
                ids[k] = tree.frames()
                        .intern(Frame.of(FrameKind.USER, "app", "f\"" + r.nextInt(6), k % 2 == 0 ? "a.c" : null, k));
            nodes.add(tree.path(ids));
        }
        List<Timeline> lines = new ArrayList<>();
        for (int th = 1; th <= 2; th++) {
            Timeline.Builder b = new Timeline.Builder(th);
            for (int i = 0; i < 300; i++)
                b.add(i * 1000L, nodes.get(r.nextInt(nodes.size())), 1, 500 + r.nextInt(1000));
            lines.add(b.build());
        }
        StringWriter w = new StringWriter();
        SpeedscopeWriter.write(tree, lines, t -> "thread " + t, "test", "ompprof test", w);
        Map<String, Object> file = (Map<String, Object>) Json.parse(w.toString());
        assertEquals(SpeedscopeWriter.SCHEMA, file.get("$schema"));
        assertTrue(file.containsKey("exporter")
                && file.containsKey("name")
                && file.get("activeProfileIndex").equals(0.0));
        List<Map<String, Object>> frames =
                (List<Map<String, Object>>) ((Map<String, Object>) file.get("shared")).get("frames");
        assertEquals(tree.frames().size(), frames.size());
        for (Map<String, Object> f : frames) assertTrue(f.get("name") instanceof String, "a frame needs a name");
        List<Map<String, Object>> profiles = (List<Map<String, Object>>) file.get("profiles");
        assertEquals(lines.size(), profiles.size());
        for (int p = 0; p < profiles.size(); p++) {
            Map<String, Object> prof = profiles.get(p);
            Timeline t = lines.get(p);
            for (String k : List.of("type", "name", "unit", "startValue", "endValue", "samples", "weights"))
                assertTrue(prof.containsKey(k), k);
            assertEquals("sampled", prof.get("type"));
            assertEquals("nanoseconds", prof.get("unit"));
            List<List<Double>> samples = (List<List<Double>>) prof.get("samples");
            List<Double> weights = (List<Double>) prof.get("weights");
            assertEquals(t.size(), samples.size());
            assertEquals(t.size(), weights.size());
            long total = 0;
            for (int i = 0; i < t.size(); i++) {
                total += t.weightNs(i);
                assertEquals(t.weightNs(i), weights.get(i).longValue());
                int[] expected = tree.framePath(t.node(i));
                assertEquals(expected.length, samples.get(i).size());
                for (int k = 0; k < expected.length; k++)
                    assertEquals(expected[k], samples.get(i).get(k).intValue(), "root first");
            }
            assertEquals((double) total, (Double) prof.get("endValue"));
            assertEquals(tree.frames().frame(0).name(), frames.get(0).get("name"), "names escaped and back");
        }
    }
}
