package org.ompprof.unwinder.clock;

import java.util.Locale;

/**
 * The stages of building a profile from a raw recording, as {@link StageClock} accounts for
 * them. They interleave (each sample is decoded, unwound, stitched, named and added in turn),
 * so each stage's time is the sum of many short stretches, and the stages' times add up to the
 * build's.
 */
public enum Stage {
    /** Reading the recording's sections and decoding its records. Items: records decoded. */
    DECODE("records"),
    /** CFI unwinding of stack snapshots (samples' and creation contexts'). Items: stacks unwound. */
    UNWIND("stacks"),
    /**
     * Classifying samples, eliding the runtime's frames, placing them under their creation contexts. Items: samples.
     */
    STITCH("samples"),
    /** Naming pcs (llvm-symbolizer, symbol tables) the first time each is seen. Items: pcs looked up. */
    SYMBOLIZE("pcs"),
    /**
     * Adding samples to the calling-context tree, timelines, per-region, per-line and device tables. Items: samples.
     */
    AGGREGATE("samples"),
    /** Blame shifting: the waits and holds, then charging the waiting. Items: samples. */
    BLAME("samples"),
    /** Encoding the profile's sections and writing the file. Items: bytes written. */
    WRITE("bytes");

    private final String items;

    Stage(String items) {
        this.items = items;
    }

    /** What the stage's item count counts. */
    public String items() {
        return items;
    }

    /** The stage's name in metadata keys and events: lower case. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
