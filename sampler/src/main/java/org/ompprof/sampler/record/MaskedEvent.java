package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A masked (master) region began (endpoint 1) or ended (2). */
public record MaskedEvent(int threadSeq, long timeNs, long parallelId, long taskId, long codeptrRa, int endpoint)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_MASKED;
    }
}
