package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A lock, critical, atomic or ordered event ({@code event}: {@code Wire.MUTEX_*}, kind: ompt_mutex_t). */
public record MutexEvent(
        int threadSeq, long timeNs, long waitId, long codeptrRa, int event, int kind, int hint, int impl)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_MUTEX;
    }
}
