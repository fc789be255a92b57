package org.ompprof.calltree.merge;

import java.util.Map;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.RegionTable;

/**
 * What a profile holds besides its timelines, which are streamed apart because they are its
 * bulk: the tree, the region, mutex, line and device tables (node ids are the tree's), the stitch
 * and blame counters, the run's metadata, and how many thread numbers it uses.
 *
 * @param threadSpan the profile's threads are numbered 0 .. threadSpan-1 (its highest thread + 1)
 */
public record ProfileParts(CallingContextTree tree, RegionTable regions, MutexTable mutexes, LineTable lines, Map<String, Long> stitch,
        Map<String, Long> blame, Map<String, String> metadata, int threadSpan, DeviceTable devices) {
    public ProfileParts {
        stitch = Map.copyOf(stitch);
        blame = Map.copyOf(blame);
        metadata = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
        if (threadSpan < 0) throw new IllegalArgumentException("negative thread span " + threadSpan);
    }

    /** A profile that used no device. */
    public ProfileParts(CallingContextTree tree, RegionTable regions, MutexTable mutexes, LineTable lines, Map<String, Long> stitch,
            Map<String, Long> blame, Map<String, String> metadata, int threadSpan) {
        this(tree, regions, mutexes, lines, stitch, blame, metadata, threadSpan, DeviceTable.empty());
    }
}
