package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * A parallel region began; {@code context} is the encountering thread's calling context.
 *
 * @param shape identity of the creation segment, as for {@link TaskCreate}; when the context
 *     has {@code Wire.CTX_SAME_SHAPE} there is no snapshot and the segment is that of the
 *     earlier region or task with the same shape
 */
public record ParallelBegin(
        int threadSeq,
        long timeNs,
        long parallelId,
        long parentTaskId,
        long codeptrRa,
        long encExitFrame,
        long encEnterFrame,
        int requestedTeamSize,
        int flags,
        long shape,
        Context context)
        implements WireRecord {
    /** Whether this record refers to an earlier one's creation segment instead of carrying a stack. */
    public boolean sameShape() {
        return context.sameShape();
    }

    @Override
    public int type() {
        return Wire.REC_PARALLEL_BEGIN;
    }
}
