package org.ompprof.calltree.merge;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RingStats;
import org.ompprof.sampler.recording.Stats;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.unwinder.stitch.StitchCounters;

/** Seeded random profile files, and a profile file's contents in terms that do not depend on node ids. */
final class ProfileFiles {
    private ProfileFiles() {}

    static Path write(Path file, long seed) throws IOException {
        Random random = new Random(seed);
        CallingContextTree tree = CallingContextTree.create();
        int threads = 1 + random.nextInt(3);
        List<Timeline> timelines = new ArrayList<>();
        List<ThreadInfo> infos = new ArrayList<>();
        for (int t = 1; t <= threads; t++) {
            Timeline.Builder line = new Timeline.Builder(t);
            long time = 0;
            int n = 1 + random.nextInt(200);
            for (int i = 0; i < n; i++) {
                int[] path = new int[1 + random.nextInt(4)];
                for (int d = 0; d < path.length; d++) {
                    path[d] = tree.frames()
                            .intern(Frame.of(
                                    FrameKind.USER, "app", d == 0 ? "main" : "f" + random.nextInt(5), "a.c", 0));
                }
                int node = tree.path(path);
                tree.addSampleAt(node, t, 0x1, 1_000_000);
                line.add(time += 1_000_000, node, 0x1, 1_000_000);
            }
            timelines.add(line.build());
            infos.add(new ThreadInfo(t, 100 + t, t == 1 ? 1 : 2, t - 1, 0, 0, 0, 0, n, 0, 0, 0, Map.of(0x1, (long) n)));
        }
        RegionTable regions = new RegionTable(
                List.of(new RegionTable.Row(1, 1 + random.nextInt(5), "a.c", 3, 1, new long[] {5, 4, 3, 2, 1})));
        MutexTable mutexes = new MutexTable(
                List.of(new MutexTable.Row("m", "mutex_blame.lock", "a.c", 9, 1 + random.nextInt(9), 1, 1)));
        Profile p = new Profile(
                tree,
                timelines,
                StitchCounters.fromMap(Map.of("regions", 3L)),
                Map.of("waited_ns.barrier", 7L),
                regions,
                mutexes,
                lineTimes(tree, random),
                timelines.stream().mapToLong(Timeline::size).sum());
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put(Metadata.COMMAND, "./app " + seed);
        m.put(Metadata.MODE, "wall");
        m.put(Metadata.PID, Long.toString(seed));
        long[] hist = new long[HandlerHistogram.empty().counts().length];
        hist[3] = seed;
        Stats stats = new Stats(
                new HandlerHistogram(hist),
                seed,
                seed * 100,
                0,
                1,
                0,
                0,
                List.of(),
                List.of(new RingStats(0, 1, 0, 0, 1, 0, 0)),
                List.of());
        ProfileWriter.write(file, new Metadata(m), infos, List.of(), stats, p);
        return file;
    }

    private static LineTable lineTimes(CallingContextTree tree, Random random) {
        LineTable.Builder b = new LineTable.Builder();
        for (int node = 1; node < tree.size(); node++)
            b.add(node, 1 + random.nextInt(20), 1_000_000, random.nextBoolean());
        return b.build();
    }

    /** What a profile file holds, with paths of frames for node ids. */
    record Contents(
            Map<List<Object>, Long> values,
            Map<Integer, List<List<Object>>> timelines,
            List<List<Object>> regions,
            List<List<Object>> mutexes,
            Map<List<Object>, List<Long>> lines,
            Map<String, String> metadata,
            List<List<Object>> threads,
            Map<String, Long> blame,
            Map<String, Long> stitch,
            long handlerCalls) {
        static Contents of(Path file) {
            try (Recording r = Recording.open(file)) {
                Profile p = ProfileReader.read(r);
                CallingContextTree tree = p.tree();
                Map<List<Object>, Long> values = new HashMap<>();
                for (Metric m : tree.metrics().all()) {
                    tree.forEachExclusive(
                            m.index(), (node, thread, v) -> values.put(List.of(path(tree, node), thread, m.name()), v));
                }
                Map<Integer, List<List<Object>>> timelines = new HashMap<>();
                for (Timeline t : p.timelines()) {
                    List<List<Object>> samples = new ArrayList<>();
                    for (int i = 0; i < t.size(); i++)
                        samples.add(List.of(t.timeNs(i), path(tree, t.node(i)), t.state(i), t.weightNs(i)));
                    timelines.put(t.thread(), samples);
                }
                List<List<Object>> regions = p.regions().rows().stream()
                        .map(x -> List.<Object>of(
                                path(tree, x.regionNode()), x.instances(), x.thread(), Arrays.toString(x.ns())))
                        .toList();
                List<List<Object>> mutexes = p.mutexes().rows().stream()
                        .map(x -> List.<Object>of(x.name(), x.waitedNs(), path(tree, x.topNode())))
                        .toList();
                List<List<Object>> threads = r.threads().stream()
                        .map(t -> List.<Object>of(t.seq(), t.osTid(), t.samples()))
                        .toList();
                Map<List<Object>, List<Long>> lines = new HashMap<>();
                for (int i = 0; i < p.lines().size(); i++) {
                    LineTable.Row x = p.lines().row(i);
                    lines.put(List.of(path(tree, x.node()), x.line()), List.of(x.inclusiveNs(), x.exclusiveNs()));
                }
                return new Contents(
                        values,
                        timelines,
                        regions,
                        mutexes,
                        lines,
                        r.metadata().entries(),
                        threads,
                        p.blame(),
                        p.counters().asMap(),
                        r.stats().handlerCalls());
            }
        }

        private static List<Frame> path(CallingContextTree tree, int node) {
            return Arrays.stream(tree.framePath(node))
                    .mapToObj(tree.frames()::frame)
                    .toList();
        }
    }
}
