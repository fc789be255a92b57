package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A kernel submission of target region {@code targetId} began or ended (host clock). */
public record TargetSubmit(
        int threadSeq, long timeNs, long targetId, long hostOpId, int requestedNumTeams, int endpoint)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_TARGET_SUBMIT;
    }
}
