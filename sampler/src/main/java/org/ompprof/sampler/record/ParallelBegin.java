package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A parallel region began; {@code context} is the encountering thread's calling context. */
public record ParallelBegin(int threadSeq, long timeNs, long parallelId, long parentTaskId, long codeptrRa,
        long encExitFrame, long encEnterFrame, int requestedTeamSize, int flags, Context context) implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_PARALLEL_BEGIN;
    }
}
