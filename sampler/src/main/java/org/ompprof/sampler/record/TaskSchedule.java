package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** The thread switched from one task to another (priorStatus: ompt_task_status_t). */
public record TaskSchedule(int threadSeq, long timeNs, long priorTaskId, long nextTaskId, int priorStatus)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_TASK_SCHEDULE;
    }
}
