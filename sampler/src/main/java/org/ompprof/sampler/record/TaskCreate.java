package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** An explicit task was created; {@code context} is the creating thread's calling context. */
public record TaskCreate(int threadSeq, long timeNs, long parentTaskId, long taskId, long codeptrRa, long encExitFrame,
        long encEnterFrame, int flags, int hasDependences, Context context) implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_TASK_CREATE;
    }
}
