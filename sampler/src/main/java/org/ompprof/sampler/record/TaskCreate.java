package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * An explicit task was created; {@code context} is the creating thread's calling context.
 *
 * @param shape identity of the creation segment (call site, length, code addresses on the
 *     stack); when the context has {@code Wire.CTX_SAME_SHAPE} there is no snapshot and the
 *     segment is that of the earlier record with the same shape; when it has {@code
 *     Wire.CTX_AS_RUNNING}, the id of the task the creating thread ran with {@code
 *     Wire.AS_RUNNING_SHAPE} set (0: none known)
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

    /**
     * Whether the encountering task ran on another thread's stack, so that this record carries no context and
     * {@code shape} names the task the creating thread ran, whose creation context this one shares.
     */
    public boolean createdAsRunning() {
        return (context.flags() & Wire.CTX_AS_RUNNING) != 0;
    }

    @Override
    public int type() {
        return Wire.REC_TASK_CREATE;
    }
}
