package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.Timeline;

/** The trace export against a paper timeline, and its structure (nesting, flows) on random ones. */
class TraceEventWriterTest {
    private static final long MS = 1_000_000;

    private static int node(CallingContextTree t, String... names) {
        int[] ids = new int[names.length];
        for (int i = 0; i < names.length; i++)
            ids[i] = t.frames().intern(Frame.of(FrameKind.USER, "app", names[i], "app.c", 0));
        return t.path(ids);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> events(CallingContextTree tree, List<Timeline> lines, DeviceTable devices)
            throws IOException {
        StringWriter w = new StringWriter();
        TraceEventWriter.write(tree, lines, devices, t -> "thread " + t, "app \"quoted\"", w);
        Map<String, Object> root = (Map<String, Object>) Json.parse(w.toString());
        return (List<Map<String, Object>>) root.get("traceEvents");
    }

    private static List<String> slices(List<Map<String, Object>> events, int tid) {
        return events.stream()
                .filter(e -> e.get("ph").equals("X") && ((Double) e.get("tid")).intValue() == tid)
                .sorted(Comparator.comparingDouble((Map<String, Object> e) -> (Double) e.get("ts")))
                .map(e -> e.get("name") + "@" + Math.round((Double) e.get("ts") / 1000) + "+"
                        + Math.round((Double) e.get("dur") / 1000))
                .sorted()
                .toList();
    }

    /**
     * main>a, main>a, main>b, main>b (each sample the 10 ms before it), a gap, main>a: slices share their frames while
     * the samples do.
     */
    @Test
    void paperTimeline() throws Exception {
        CallingContextTree tree = CallingContextTree.create();
        int a = node(tree, "main", "a"), b = node(tree, "main", "b");
        Timeline t = new Timeline.Builder(1)
                .add(0, a, 0x1, 10 * MS)
                .add(10 * MS, a, 0x1, 10 * MS)
                .add(20 * MS, b, 0x11, 10 * MS)
                .add(30 * MS, b, 0x11, 10 * MS)
                .add(100 * MS, a, 0x1, 10 * MS)
                .build();
        List<Map<String, Object>> events = events(tree, List.of(t), DeviceTable.empty());
        assertEquals(
                List.of("a@0+20", "a@100+10", "b@20+20", "main@0+40", "main@100+10"),
                slices(events, 1),
                "ms: call stack slices");
        assertEquals(
                List.of("barrier.implicit_parallel@20+20", "work_parallel@0+20", "work_parallel@100+10"),
                slices(events, TraceEventWriter.STATE_TID_BASE + 1),
                "ms: state slices");
        assertTrue(events.stream()
                .anyMatch(e ->
                        e.get("ph").equals("M") && "app \"quoted\"".equals(((Map<?, ?>) e.get("args")).get("name"))));
    }

    @Test
    void deviceActivitiesGetLanesAndLaunchArrows() throws Exception {
        CallingContextTree tree = CallingContextTree.create();
        int launch = node(tree, "main", "launch");
        Timeline t = new Timeline.Builder(1) // samples stand for the 10 ms before them: 0 to 20 ms
                .add(10 * MS, launch, 0x1, 10 * MS)
                .add(20 * MS, launch, 0x80, 10 * MS)
                .build();
        DeviceTable d = new DeviceTable(
                List.of(new DeviceTable.Device(0, "generic-64bit")),
                List.of(
                        new DeviceTable.Activity(
                                DeviceTable.Kind.REGION, 0, 1 * MS, 19 * MS, 0, 1, launch, 1, -1, -1, 7, 70, false),
                        new DeviceTable.Activity(
                                DeviceTable.Kind.TRANSFER, 0, 2 * MS, 3 * MS, 4096, 1, launch, 1, -1, 0, 7, 71, false),
                        new DeviceTable.Activity(
                                DeviceTable.Kind.KERNEL, 0, 4 * MS, 15 * MS, 0, 1, launch, 0, -1, -1, 7, 72, false)));
        List<Map<String, Object>> events = events(tree, List.of(t), d);
        int pid = TraceEventWriter.devicePid(0);
        List<Map<String, Object>> device = events.stream()
                .filter(e -> e.get("ph").equals("X") && ((Double) e.get("pid")).intValue() == pid)
                .toList();
        assertEquals(3, device.size());
        Map<String, Object> kernel = device.stream()
                .filter(e -> e.get("name").equals("kernel"))
                .findFirst()
                .orElseThrow();
        assertEquals(4000.0, (Double) kernel.get("ts"), 1e-6);
        assertEquals(11000.0, (Double) kernel.get("dur"), 1e-6);
        assertEquals("main;launch", ((Map<?, ?>) kernel.get("args")).get("launched_from"));
        assertEquals(
                4096.0,
                ((Map<?, ?>) device.stream()
                                .filter(e -> e.get("name").toString().startsWith("to device"))
                                .findFirst()
                                .orElseThrow()
                                .get("args"))
                        .get("bytes"));
        List<Map<String, Object>> starts =
                events.stream().filter(e -> e.get("ph").equals("s")).toList();
        List<Map<String, Object>> finishes =
                events.stream().filter(e -> e.get("ph").equals("f")).toList();
        assertEquals(2, starts.size(), "an arrow to the kernel and to the transfer, none to the region");
        for (Map<String, Object> s : starts) {
            assertEquals(
                    1,
                    finishes.stream()
                            .filter(f -> f.get("id").equals(s.get("id")) && ((Double) f.get("pid")).intValue() == pid)
                            .count());
            assertEquals(1.0, s.get("tid"), "from the launching thread");
        }
        assertTrue(events.stream()
                .anyMatch(e -> e.get("ph").equals("M")
                        && "device 0 (generic-64bit)".equals(((Map<?, ?>) e.get("args")).get("name"))));
    }

    /**
     * On random timelines: per track, slices nest or are disjoint; every sample's time is covered by its context's
     * slices.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void slicesNestOnEveryTrack(long seed) throws Exception {
        Random r = new Random(seed);
        CallingContextTree tree = CallingContextTree.create();
        List<Integer> nodes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String[] names = new String[1 + r.nextInt(6)];
            for (int k = 0; k < names.length; k++) names[k] = "f" + r.nextInt(5);
            nodes.add(node(tree, names));
        }
        List<Timeline> lines = new ArrayList<>();
        for (int th = 1; th <= 3; th++) {
            Timeline.Builder b = new Timeline.Builder(th);
            long time = 0;
            for (int i = 0; i < 400; i++) {
                time += r.nextInt(10) == 0 ? 50 * MS : MS;
                b.add(time, nodes.get(r.nextInt(nodes.size())), r.nextBoolean() ? 0x1 : 0x11, MS);
            }
            lines.add(b.build());
        }
        List<Map<String, Object>> events = events(tree, lines, DeviceTable.empty());
        Map<Integer, List<double[]>> byTid = new HashMap<>();
        for (Map<String, Object> e : events) {
            if (!e.get("ph").equals("X")) continue;
            double ts = (Double) e.get("ts"), dur = (Double) e.get("dur");
            assertTrue(ts >= 0 && dur > 0, e.toString());
            byTid.computeIfAbsent(((Double) e.get("tid")).intValue(), k -> new ArrayList<>())
                    .add(new double[] {ts, ts + dur});
        }
        for (List<double[]> track : byTid.values()) {
            track.sort(Comparator.comparingDouble((double[] s) -> s[0]).thenComparingDouble(s -> -s[1]));
            List<double[]> open = new ArrayList<>();
            for (double[] s : track) {
                while (!open.isEmpty() && open.getLast()[1] <= s[0] + 1e-9) open.removeLast();
                if (!open.isEmpty())
                    assertTrue(s[1] <= open.getLast()[1] + 1e-9, "slices cross: " + java.util.Arrays.toString(s));
                open.add(s);
            }
        }
        // the outermost slices cover each sample until the next one, or for its weight before a gap
        for (Timeline t : lines) {
            double expected = 0;
            for (int i = 0; i < t.size(); i++) {
                boolean joined = i + 1 < t.size() && t.timeNs(i + 1) <= t.timeNs(i) + t.weightNs(i) + t.weightNs(i + 1);
                expected += (joined ? t.timeNs(i + 1) - t.timeNs(i) : t.weightNs(i)) / 1000.0;
            }
            double covered = events.stream()
                    .filter(e -> e.get("ph").equals("X")
                            && ((Double) e.get("tid")).intValue() == t.thread()
                            && ((Map<?, ?>) e.get("args")).get("depth").equals(1.0))
                    .mapToDouble(e -> (Double) e.get("dur"))
                    .sum();
            assertEquals(
                    expected, covered, 1e-3 * t.size(), "thread " + t.thread() + ": time under the outermost frames");
        }
    }
}
