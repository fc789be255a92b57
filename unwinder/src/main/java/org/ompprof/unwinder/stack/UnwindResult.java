package org.ompprof.unwinder.stack;

import java.util.List;

/** The frames of one sample, innermost first, how the walk ended and, unless COMPLETE, why. */
public record UnwindResult(List<Frame> frames, Termination termination, String detail) {
    public UnwindResult {
        frames = List.copyOf(frames);
    }

    /** The pcs as found (return addresses not adjusted). */
    public long[] pcs() {
        return frames.stream().mapToLong(Frame::pc).toArray();
    }
}
