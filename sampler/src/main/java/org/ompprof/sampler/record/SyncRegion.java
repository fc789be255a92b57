package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * A synchronization region (kind: ompt_sync_region_t) began (endpoint 1) or ended (2);
 * {@code isWait} marks the sync_region_wait callback.
 */
public record SyncRegion(
        int threadSeq, long timeNs, long parallelId, long taskId, long codeptrRa, int kind, int endpoint, int isWait)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_SYNC_REGION;
    }
}
