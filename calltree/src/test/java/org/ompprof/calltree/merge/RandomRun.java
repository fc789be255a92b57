package org.ompprof.calltree.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.MetricStorage;
import org.ompprof.calltree.MetricUnit;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * A seeded random profile as a merge input: a tree on its own frame table (frames shared with
 * other seeds' by value, so paths overlap), timelines whose nodes are the tree's, region and
 * mutex rows (with tied waits), counters and metadata that agree on some keys and not others;
 * with its run's metadata and thread span (its threads are numbered 0 .. threadSpan-1).
 */
record RandomRun(Profile profile, Map<String, String> metadata, int threadSpan) {
    List<Timeline> timelines() {
        return profile.timelines();
    }

    private static final int[] STATES = {0x001, 0x002, 0x011, 0x013, 0x016, 0x101};

    static RandomRun of(long seed) {
        Random random = new Random(seed);
        CallingContextTree tree = CallingContextTree.create();
        int blame = tree.metrics()
                .register(
                        seed % 2 == 0 ? "idle_blame" : "barrier_blame",
                        MetricUnit.NANOSECONDS,
                        "",
                        MetricStorage.SPARSE,
                        null)
                .index();
        int threads = 1 + random.nextInt(4);
        List<Timeline> timelines = new ArrayList<>();
        for (int t = 1; t <= threads; t++) {
            Timeline.Builder line = new Timeline.Builder(t);
            long time = random.nextInt(1000);
            for (int i = 0, n = random.nextInt(60); i < n; i++) {
                int node = tree.path(path(random, tree));
                int state = STATES[random.nextInt(STATES.length)];
                long weight = 1_000_000L * (1 + random.nextInt(2));
                tree.addSampleAt(node, t, state, weight);
                if (random.nextInt(5) == 0) tree.add(node, t, blame, random.nextInt(1000) + 1);
                line.add(time += weight, node, state, weight);
            }
            timelines.add(line.build());
        }
        List<RegionTable.Row> regions = new ArrayList<>();
        for (int i = 0, n = random.nextInt(4); i < n; i++) {
            regions.add(new RegionTable.Row(
                    random.nextInt(tree.size()),
                    1 + random.nextInt(9),
                    "r.c",
                    random.nextInt(50),
                    1 + random.nextInt(threads),
                    new long[] {random.nextInt(100), random.nextInt(100), 0, random.nextInt(5), 1}));
        }
        LineTable.Builder lines = new LineTable.Builder();
        for (int i = 0, n = random.nextInt(6); i < n; i++)
            lines.add(
                    random.nextInt(tree.size()), 1 + random.nextInt(9), 1 + random.nextInt(100), random.nextBoolean());
        List<MutexTable.Row> mutexes = new ArrayList<>();
        for (int i = 0, n = random.nextInt(4); i < n; i++) {
            mutexes.add(new MutexTable.Row(
                    "m" + seed + "_" + i,
                    "mutex_blame.lock",
                    null,
                    0,
                    100L * random.nextInt(3),
                    random.nextInt(4) == 0 ? -1 : random.nextInt(tree.size()),
                    random.nextInt(100)));
        }
        mutexes.sort((x, y) -> Long.compare(y.waitedNs(), x.waitedNs()));
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("mode", "wall");
        metadata.put("rate_hz", random.nextInt(3) == 0 ? "2000" : "1000");
        metadata.put("pid", Long.toString(seed));
        Map<String, Long> stitch =
                Map.of("samples.exact", (long) random.nextInt(100), seed % 3 == 0 ? "regions" : "tasks", 1L);
        Map<String, Long> blameTotals = Map.of("waited_ns.barrier", (long) random.nextInt(1000));
        int span = threads + 1 + random.nextInt(2); // a gap above the highest thread, as a real profile may have
        long samples = timelines.stream().mapToLong(Timeline::size).sum();
        return new RandomRun(
                new Profile(
                        tree,
                        timelines,
                        StitchCounters.fromMap(stitch),
                        blameTotals,
                        new RegionTable(regions),
                        new MutexTable(mutexes),
                        lines.build(),
                        samples,
                        devices(random, tree, threads)),
                metadata,
                span);
    }

    /** None for some runs; else a few host devices with target regions, kernels and transfers between them. */
    private static DeviceTable devices(Random random, CallingContextTree tree, int threads) {
        int count = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(3);
        List<DeviceTable.Device> devices = new ArrayList<>();
        for (int d = 0; d < count; d++) devices.add(new DeviceTable.Device(d, "generic-64bit"));
        List<DeviceTable.Activity> activities = new ArrayList<>();
        long start = random.nextInt(1000);
        for (int i = 0, n = count == 0 ? 0 : random.nextInt(12); i < n; i++) {
            DeviceTable.Kind kind = DeviceTable.Kind.values()[random.nextInt(DeviceTable.Kind.values().length)];
            int device = random.nextInt(count);
            boolean transfer = kind == DeviceTable.Kind.TRANSFER;
            start += random.nextInt(5_000);
            activities.add(new DeviceTable.Activity(
                    kind,
                    device,
                    start,
                    start + 1 + random.nextInt(9_000),
                    transfer ? 1 + random.nextInt(1 << 20) : 0,
                    random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(threads),
                    random.nextInt(5) == 0 ? -1 : random.nextInt(tree.size()),
                    0,
                    transfer ? count : -1,
                    transfer ? device : -1,
                    i,
                    i,
                    false));
        }
        return new DeviceTable(devices, activities, random.nextInt(3), random.nextInt(2));
    }

    private static int[] path(Random random, CallingContextTree tree) {
        int depth = 1 + random.nextInt(5);
        int[] ids = new int[depth];
        for (int i = 0; i < depth; i++) {
            Frame f = i == 0
                    ? Frame.of(FrameKind.USER, "app", "main", "m.c", 1)
                    : random.nextInt(7) == 0
                            ? Frame.OMP_IDLE
                            : Frame.of(FrameKind.USER, "app", "f" + random.nextInt(4), "f.c", 0);
            ids[i] = tree.frames().intern(f);
        }
        return ids;
    }
}
