package org.ompprof.ui.pipeline;

import java.util.List;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * A calling-context tree with each thread's sample timeline (node ids are the tree's) and what
 * stitching found on the way.
 *
 * @param samples samples in the tree (the sum of the timelines' sizes)
 */
public record Profile(CallingContextTree tree, List<Timeline> timelines, StitchCounters counters, long samples) {
    public Profile {
        timelines = List.copyOf(timelines);
    }
}
