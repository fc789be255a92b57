package org.ompprof.sampler.recording;

/** Where a module's image can be found when the recording is analysed. */
public enum ImageSource {
    /** Copied into the recording (MODULE_IMAGE sections). */
    EMBEDDED,
    /** A system file left in place; dev/ino/size/mtime and the build id identify it. */
    REFERENCE,
    /** Not captured; the note says why. */
    MISSING,
    /** Captured during the run and used to unwind and symbolize it; a profile does not keep images. */
    USED
}
