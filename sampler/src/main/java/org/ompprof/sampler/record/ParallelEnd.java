package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A parallel region ended. */
public record ParallelEnd(int threadSeq, long timeNs, long parallelId, long taskId, long codeptrRa, int flags)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_PARALLEL_END;
    }
}
