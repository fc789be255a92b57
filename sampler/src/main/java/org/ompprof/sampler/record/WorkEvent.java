package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A worksharing construct (workType: ompt_work_t) began (endpoint 1) or ended (2). */
public record WorkEvent(
        int threadSeq,
        long timeNs,
        long parallelId,
        long taskId,
        long count,
        long codeptrRa,
        int workType,
        int endpoint)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_WORK;
    }
}
