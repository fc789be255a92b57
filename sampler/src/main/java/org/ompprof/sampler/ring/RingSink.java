package org.ompprof.sampler.ring;

import java.lang.foreign.MemorySegment;

/**
 * Receives what a ring holds, in ring order. Region-heavy programs write millions of records a
 * second, and the drainer shares the program's cores: so records arrive as runs of whole
 * records whose framing (size, type, version) is checked, to be copied in bulk, and only the few
 * types a sink asks for are handed over one by one, their contents checked too.
 */
public interface RingSink {
    /** The record types, one bit per type, this sink wants one by one through {@link #record}. */
    long inspected();

    /**
     * One record of an inspected type, before the run that holds it. {@code rec} is exactly the
     * record's bytes, valid only during the call: the producer may overwrite them once the read
     * position is published.
     */
    void record(MemorySegment rec);

    /**
     * Consecutive records of one thread (never PADs), valid only during the call. Their contents
     * are not checked here: that is for whoever decodes them.
     *
     * @param count the number of records in {@code records}
     * @param firstNs the first record's time (every payload starts with its time)
     * @param lastNs the last record's time
     */
    void run(int threadSeq, MemorySegment records, int count, long firstNs, long lastNs);

    /** The bit of {@link #inspected()} for record type {@code type}. */
    static long bit(int type) {
        return type >= 0 && type < Long.SIZE ? 1L << type : 0;
    }
}
