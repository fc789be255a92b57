package org.ompprof.ui.pipeline;

import java.util.List;
import java.util.Map;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * A calling-context tree with each thread's sample timeline (node ids are the tree's) and what
 * stitching found on the way.
 *
 * @param blame blame totals per kind: waited_ns.KIND, charged_ns.KIND, unattributed_ns.KIND, outside_hold_ns.KIND
 * @param regions each thread's time per parallel region (by the context that opened it)
 * @param mutexes the mutexes threads waited for, most waited first
 * @param lines time per source line within each context
 * @param samples samples in the tree (the sum of the timelines' sizes)
 */
public record Profile(CallingContextTree tree, List<Timeline> timelines, StitchCounters counters, Map<String, Long> blame,
        RegionTable regions, MutexTable mutexes, LineTable lines, long samples) {
    public Profile {
        timelines = List.copyOf(timelines);
        blame = Map.copyOf(blame);
    }

    /** This profile with {@code lines} as its timelines (and their sizes as its sample count). */
    public Profile withTimelines(List<Timeline> lines) {
        long n = lines.stream().mapToLong(Timeline::size).sum();
        return new Profile(tree, lines, counters, blame, regions, mutexes, this.lines, n);
    }

    /** A blame total (see {@link #blame}), 0 if absent. */
    public long blame(String key) {
        return blame.getOrDefault(key, 0L);
    }
}
