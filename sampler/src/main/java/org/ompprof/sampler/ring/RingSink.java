package org.ompprof.sampler.ring;

import java.lang.foreign.MemorySegment;

/** Receives the validated records of a ring, in ring order. */
@FunctionalInterface
public interface RingSink {
    /**
     * One record (never a PAD). {@code rec} is exactly the record's bytes and is valid only during
     * the call: the producer may overwrite them once the read position is published.
     */
    void record(MemorySegment rec);
}
