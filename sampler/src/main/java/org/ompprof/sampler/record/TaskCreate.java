package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * An explicit task was created; {@code context} is the creating thread's calling context.
 *
 * @param shape identity of the creation segment (call site, length, code addresses on the
 *     stack); when the context has {@code Wire.CTX_SAME_SHAPE} there is no snapshot and the
 *     segment is that of the earlier record with the same shape
 */
public record TaskCreate(
        int threadSeq,
        long timeNs,
        long parentTaskId,
        long taskId,
        long codeptrRa,
        long encExitFrame,
        long encEnterFrame,
        int flags,
        int hasDependences,
        long shape,
        Context context)
        implements WireRecord {
    /** Whether this record refers to an earlier one's creation segment instead of carrying a stack. */
    public boolean sameShape() {
        return context.sameShape();
    }

    @Override
    public int type() {
        return Wire.REC_TASK_CREATE;
    }
}
