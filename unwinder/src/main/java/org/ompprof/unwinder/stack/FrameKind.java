package org.ompprof.unwinder.stack;

/** How a frame's pc was found, which says whether it is a return address. */
public enum FrameKind {
    /** The pc the thread was at: the sampled rip, or a pc restored from a signal frame. */
    EXACT,
    /** A return address recovered through CFI. */
    RETURN_ADDRESS,
    /** A return address found by following the frame-pointer chain where no CFI existed: a guess. */
    FRAME_POINTER;

    public boolean isReturnAddress() {
        return this != EXACT;
    }
}
