package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A thread ended (ompt thread_end). */
public record ThreadEnd(int threadSeq, long timeNs) implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_THREAD_END;
    }
}
