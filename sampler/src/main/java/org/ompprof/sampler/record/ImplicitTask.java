package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** An implicit task began (endpoint 1) or ended (2); parallelId is 0 at scope end. */
public record ImplicitTask(
        int threadSeq,
        long timeNs,
        long parallelId,
        long taskId,
        int endpoint,
        int actualParallelism,
        int index,
        int flags)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_IMPLICIT_TASK;
    }
}
