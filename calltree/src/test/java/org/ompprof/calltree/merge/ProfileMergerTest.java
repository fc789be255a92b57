package org.ompprof.calltree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.unwinder.stitch.StitchCounters;

class ProfileMergerTest {
    /**
     * Merges runs as a caller would: profiles without their timelines first, then each input's timelines through its
     * mapping.
     */
    private static RandomRun merge(List<RandomRun> inputs, List<String> sources) {
        ProfileMerger merger = new ProfileMerger();
        List<Timeline> timelines = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            RandomRun in = inputs.get(i);
            InputMapping mapping = merger.add(in.profile(), in.metadata(), in.threadSpan(), sources.get(i));
            for (Timeline t : in.timelines()) timelines.add(mapping.remap(t));
        }
        return new RandomRun(merger.result().withTimelines(timelines), merger.metadata(), merger.threadSpan());
    }

    private static RandomRun merge(RandomRun a, String sa, RandomRun b, String sb) {
        return merge(List.of(a, b), List.of(sa, sb));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 17, 99, 4242})
    void mergeIsAssociative(long seed) {
        RandomRun a = RandomRun.of(seed), b = RandomRun.of(seed * 31 + 1), c = RandomRun.of(seed * 31 + 2);
        RandomRun left = merge(merge(a, "a", b, "b"), "ab", c, "c");
        RandomRun right = merge(a, "a", merge(b, "b", c, "c"), "bc");
        RandomRun flat = merge(List.of(a, b, c), List.of("a", "b", "c"));
        assertEquals(Contents.of(flat), Contents.of(left));
        assertEquals(Contents.of(flat), Contents.of(right));
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6, 7})
    void valuesAddAndThreadsAreKeptApart(long seed) {
        RandomRun a = RandomRun.of(seed), b = RandomRun.of(seed + 100);
        RandomRun ab = merge(a, "a", b, "b");
        CallingContextTree tree = ab.profile().tree();
        int span = a.threadSpan();
        for (Metric m : tree.metrics().all()) {
            long expected =
                    total(a.profile().tree(), m.name()) + total(b.profile().tree(), m.name());
            assertEquals(expected, tree.total(m.index()), m.name());
        }
        int samples = tree.metrics().require("samples").index();
        for (int t : a.profile().tree().threads())
            assertEquals(a.profile().tree().total(samples, t), tree.total(samples, t));
        for (int t : b.profile().tree().threads())
            assertEquals(b.profile().tree().total(samples, t), tree.total(samples, span + t));
        assertEquals(span + b.threadSpan(), ab.threadSpan());
        assertEquals("2", ab.metadata().get(RunMetadata.INPUTS));
        assertEquals("wall", ab.metadata().get("mode"), "what all runs agree on stays at the top");
        assertEquals(null, ab.metadata().get("pid"), "what they disagree on does not");
        assertEquals(Long.toString(seed + 100), ab.metadata().get("input.1.pid"));
        assertEquals(Integer.toString(span), ab.metadata().get("input.1.thread_offset"));
        assertEquals("b", ab.metadata().get("input.1.source"));
        long exact = a.profile().counters().asMap().get("samples.exact")
                + b.profile().counters().asMap().get("samples.exact");
        assertEquals(exact, ab.profile().counters().asMap().get("samples.exact"));
    }

    @ParameterizedTest
    @ValueSource(longs = {8, 9, 10, 11})
    void deviceActivitiesAreKeptWithTheirDevicesApart(long seed) {
        RandomRun a = RandomRun.of(seed), b = RandomRun.of(seed + 200), c = RandomRun.of(seed + 300);
        List<RandomRun> inputs = List.of(a, b, c);
        RandomRun abc = merge(inputs, List.of("a", "b", "c"));
        var out = abc.profile().devices();
        int deviceOffset = 0, threadOffset = 0, expectedActivities = 0;
        for (RandomRun in : inputs) {
            var d = in.profile().devices();
            for (var device : d.devices())
                assertTrue(out.devices()
                        .contains(new org.ompprof.calltree.profile.DeviceTable.Device(
                                device.number() + deviceOffset, device.type())));
            for (var act : d.activities()) {
                int dev = act.device() + deviceOffset, thread = act.thread() == 0 ? 0 : act.thread() + threadOffset;
                List<Frame> launch = act.launchNode() < 0
                        ? List.of()
                        : Contents.path(in.profile().tree(), act.launchNode());
                long found = out.activities().stream()
                        .filter(o -> o.device() == dev
                                && o.startNs() == act.startNs()
                                && o.endNs() == act.endNs()
                                && o.bytes() == act.bytes()
                                && o.thread() == thread
                                && o.kind() == act.kind()
                                && (o.launchNode() < 0
                                                ? List.of()
                                                : Contents.path(abc.profile().tree(), o.launchNode()))
                                        .equals(launch))
                        .count();
                assertTrue(found >= 1, "activity " + act + " is in the merge, launched from the same path");
            }
            expectedActivities += d.activities().size();
            deviceOffset += d.span();
            threadOffset += in.threadSpan();
        }
        assertEquals(expectedActivities, out.activities().size());
        assertEquals(deviceOffset, out.span(), "no two inputs share a device number");
        assertEquals(
                inputs.stream()
                        .mapToLong(r -> r.profile().devices().unmatched())
                        .sum(),
                out.unmatched());
        for (int i = 1; i < out.activities().size(); i++)
            assertTrue(out.activities().get(i - 1).startNs()
                    <= out.activities().get(i).startNs());
    }

    @Test
    void tooManyThreadsIsRefused() {
        RandomRun a = RandomRun.of(1);
        ProfileMerger merger = new ProfileMerger();
        merger.add(a.profile(), Map.of(), CallingContextTree.MAX_THREAD, "x");
        assertThrows(IllegalArgumentException.class, () -> merger.add(a.profile(), a.metadata(), a.threadSpan(), "y"));
    }

    private static long total(CallingContextTree tree, String metric) {
        Metric m = tree.metrics().find(metric);
        return m == null ? 0 : tree.total(m.index());
    }

    /** A merged profile in terms of frames, not node ids, which depend on the order of creation. */
    record Contents(
            Map<List<Object>, Long> values,
            List<List<Object>> regions,
            List<List<Object>> mutexes,
            Map<Integer, List<List<Object>>> timelines,
            Map<List<Object>, List<Long>> lines,
            Map<String, Long> stitch,
            Map<String, Long> blame,
            Map<String, String> metadata,
            int threadSpan,
            List<Object> devices) {
        static Contents of(RandomRun run) {
            Profile p = run.profile();
            CallingContextTree tree = p.tree();
            Map<List<Object>, Long> values = new HashMap<>();
            for (Metric m : tree.metrics().all()) {
                tree.forEachExclusive(
                        m.index(), (node, thread, v) -> values.put(List.of(path(tree, node), thread, m.name()), v));
            }
            List<List<Object>> regions = p.regions().rows().stream()
                    .map(r -> List.<Object>of(
                            path(tree, r.regionNode()),
                            r.instances(),
                            r.callSiteLine(),
                            r.thread(),
                            Arrays.toString(r.ns())))
                    .toList();
            List<List<Object>> mutexes = p.mutexes().rows().stream()
                    .map(m -> List.<Object>of(
                            m.name(),
                            m.waitedNs(),
                            m.topNode() < 0 ? List.of() : path(tree, m.topNode()),
                            m.topNodeNs()))
                    .toList();
            Map<Integer, List<List<Object>>> timelines = new HashMap<>();
            for (Timeline t : run.timelines()) {
                List<List<Object>> samples = new ArrayList<>();
                for (int i = 0; i < t.size(); i++) {
                    samples.add(List.of(t.timeNs(i), path(tree, t.node(i)), t.state(i), t.weightNs(i)));
                }
                assertEquals(null, timelines.put(t.thread(), samples), "one timeline per output thread");
            }
            Map<List<Object>, List<Long>> lines = new HashMap<>();
            for (int i = 0; i < p.lines().size(); i++) {
                LineTable.Row r = p.lines().row(i);
                lines.put(List.of(path(tree, r.node()), r.line()), List.of(r.inclusiveNs(), r.exclusiveNs()));
            }
            List<Object> devices = List.of(
                    p.devices().devices(),
                    p.devices().activities().stream()
                            .map(a -> List.<Object>of(
                                    a.kind(),
                                    a.device(),
                                    a.startNs(),
                                    a.endNs(),
                                    a.bytes(),
                                    a.thread(),
                                    a.launchNode() < 0 ? List.of() : path(tree, a.launchNode()),
                                    a.srcDevice(),
                                    a.destDevice(),
                                    a.targetId()))
                            .toList(),
                    p.devices().unmatched(),
                    p.devices().late());
            return new Contents(
                    values,
                    regions,
                    mutexes,
                    timelines,
                    lines,
                    p.counters().asMap(),
                    p.blame(),
                    run.metadata(),
                    run.threadSpan(),
                    devices);
        }

        static List<Frame> path(CallingContextTree tree, int node) {
            return Arrays.stream(tree.framePath(node))
                    .mapToObj(tree.frames()::frame)
                    .toList();
        }
    }

    @Test
    void mutexRowsStaySortedByWait() {
        RandomRun ab = merge(RandomRun.of(8), "a", RandomRun.of(9), "b");
        List<MutexTable.Row> rows = ab.profile().mutexes().rows();
        for (int i = 1; i < rows.size(); i++)
            assertEquals(true, rows.get(i - 1).waitedNs() >= rows.get(i).waitedNs());
        List<RegionTable.Row> regions = ab.profile().regions().rows();
        assertEquals(
                RandomRun.of(8).profile().regions().rows().size()
                        + RandomRun.of(9).profile().regions().rows().size(),
                regions.size());
    }

    @Test
    void aRegionsInstancesAreTheRunsSum() {
        RandomRun a = RandomRun.of(1);
        RegionTable.Row row = new RegionTable.Row(1, 5, "r.c", 3, 1, new long[] {1, 2, 3, 4, 5});
        RegionTable.Row other = new RegionTable.Row(1, 5, "r.c", 3, 2, new long[] {1, 2, 3, 4, 5});
        Profile p = new Profile(
                a.profile().tree(),
                List.of(),
                StitchCounters.fromMap(Map.of()),
                Map.of(),
                new RegionTable(List.of(row, other)),
                new MutexTable(List.of()),
                LineTable.EMPTY,
                0);
        RandomRun twice =
                merge(List.of(new RandomRun(p, Map.of(), 3), new RandomRun(p, Map.of(), 3)), List.of("x", "y"));
        List<RegionTable.Row> rows = twice.profile().regions().rows();
        assertEquals(4, rows.size());
        for (RegionTable.Row r : rows) assertEquals(10, r.instances());
    }
}
