package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * An implicit task began (endpoint 1) or ended (2); parallelId is 0 at scope end. A region's ordinary implicit tasks
 * are written only once a later record names them, and timeNs is when that was, not the begin (an initial task's, or a
 * region's that no parallel begin announced, is the begin's).
 */
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
