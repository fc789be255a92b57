package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * A data operation of target region {@code targetId} began or ended (host clock).
 *
 * @param optype {@code ompt_target_data_op_t}: 1 alloc, 2 to device, 3 from device, 4 delete,
 *     5 associate, 6 disassociate (and the async variants)
 */
public record TargetDataOp(
        int threadSeq,
        long timeNs,
        long targetId,
        long hostOpId,
        long srcAddr,
        long destAddr,
        long bytes,
        long codeptrRa,
        int srcDeviceNum,
        int destDeviceNum,
        int optype,
        int endpoint)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_TARGET_DATA_OP;
    }
}
