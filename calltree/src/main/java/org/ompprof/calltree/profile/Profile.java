package org.ompprof.calltree.profile;

import java.util.List;
import java.util.Map;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.StandardMetrics;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * A calling-context tree with each thread's sample timeline (node ids are the tree's) and what
 * stitching found on the way.
 *
 * @param blame blame totals per kind: waited_ns.KIND, charged_ns.KIND, unattributed_ns.KIND, outside_hold_ns.KIND,
 *     handed_over_ns.KIND (mutex waiting while nobody held it), region_latency_ns.KIND
 * @param regions each thread's time per parallel region (by the context that opened it)
 * @param mutexes the mutexes threads waited for, most waited first
 * @param lines time per source line within each context
 * @param samples samples in the tree (the sum of the timelines' sizes)
 * @param devices the devices' activity (target regions, kernels, transfers) on the host clock, for device lanes
 * @param mpi the MPI calls of the ranks in the profile, for cross-rank blame
 */
public record Profile(
        CallingContextTree tree,
        List<Timeline> timelines,
        StitchCounters counters,
        Map<String, Long> blame,
        RegionTable regions,
        MutexTable mutexes,
        LineTable lines,
        long samples,
        DeviceTable devices,
        MpiCallTable mpi) {
    public Profile {
        timelines = List.copyOf(timelines);
        blame = Map.copyOf(blame);
    }

    /** A profile of a program that is no MPI rank. */
    public Profile(
            CallingContextTree tree,
            List<Timeline> timelines,
            StitchCounters counters,
            Map<String, Long> blame,
            RegionTable regions,
            MutexTable mutexes,
            LineTable lines,
            long samples,
            DeviceTable devices) {
        this(tree, timelines, counters, blame, regions, mutexes, lines, samples, devices, MpiCallTable.empty());
    }

    /** A profile of a program that used no device. */
    public Profile(
            CallingContextTree tree,
            List<Timeline> timelines,
            StitchCounters counters,
            Map<String, Long> blame,
            RegionTable regions,
            MutexTable mutexes,
            LineTable lines,
            long samples) {
        this(tree, timelines, counters, blame, regions, mutexes, lines, samples, DeviceTable.empty());
    }

    /**
     * This profile with {@code lines} as its timelines; its sample count is the tree's (a
     * downsampled timeline has fewer entries than samples), or the timelines' sizes if the tree
     * does not count samples.
     */
    public Profile withTimelines(List<Timeline> lines) {
        var metric = tree.metrics().find(StandardMetrics.SAMPLES_NAME);
        long n = metric != null
                ? tree.total(metric.index())
                : lines.stream().mapToLong(Timeline::size).sum();
        return new Profile(tree, lines, counters, blame, regions, mutexes, this.lines, n, devices, mpi);
    }

    /** A blame total (see {@link #blame}), 0 if absent. */
    public long blame(String key) {
        return blame.getOrDefault(key, 0L);
    }
}
