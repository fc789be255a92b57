package org.ompprof.calltree.merge;

import org.ompprof.calltree.profile.Timeline;

/**
 * Where one input of a merge landed in the output: its thread t is thread
 * {@code threadOffset + t} there, its node n is node {@code nodeMap[n]}.
 */
public record InputMapping(int threadOffset, int[] nodeMap) {
    public int thread(int inputThread) {
        return threadOffset + inputThread;
    }

    /** One of the input's timelines (or a run of it), as the output holds it. */
    public Timeline remap(Timeline inputTimeline) {
        return inputTimeline.remapped(thread(inputTimeline.thread()), nodeMap);
    }
}
