package org.ompprof.unwinder.stitch;

import java.util.List;

/**
 * The frames one task contributes to a context, root first: for a creation record, the
 * creating task's frames from its start down to the call that created the region or task.
 *
 * @param gap what is missing; if anything, {@code frames} begins with the marker saying so
 */
record Segment(List<PathFrame> frames, Gap gap) {
    /** Stands for the creation of a region or task that was never recorded. */
    static final Segment UNKNOWN = new Segment(List.of(Placeholder.UNKNOWN_CONTEXT), Gap.UNKNOWN);

    Segment {
        frames = List.copyOf(frames);
    }

    // written out, not the record's own: those link through method handles at their first call (7 ms of a build)

    @Override
    public boolean equals(Object o) {
        return o instanceof Segment s && gap == s.gap && frames.equals(s.frames);
    }

    @Override
    public int hashCode() {
        return 31 * frames.hashCode() + gap.ordinal();
    }
}
