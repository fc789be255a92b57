package org.ompprof.unwinder.stack;

/** Why an unwind stopped; every outcome keeps the frames found before it. */
public enum Termination {
    /** Reached the outermost frame: the return address is undefined (_start, clone, thread start) or 0. */
    COMPLETE,
    /** The next read would fall outside the snapshot: the path is cut, not invented. */
    TRUNCATED,
    /** Frame pointers stood in where no CFI covered a pc, and that chain ended. */
    NO_CFI_FALLBACK_FP,
    /** A pc lies in no known module; it is the last frame. */
    UNKNOWN_PC,
    /** The CFI is damaged or impossible to apply; the detail says what. */
    ERROR,
    /** The frame limit was reached. */
    DEPTH_LIMIT
}
