package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * A target construct began or ended on the encountering thread. A begin carries that thread's
 * calling context (the launch site of everything the region does on the device); an end an
 * empty one.
 *
 * @param kind {@code ompt_target_t}: 1 target, 2 enter data, 3 exit data, 4 update (and the nowait variants)
 */
public record TargetEvent(
        int threadSeq,
        long timeNs,
        long targetId,
        long taskId,
        long codeptrRa,
        long encExitFrame,
        long encEnterFrame,
        int deviceNum,
        int kind,
        int endpoint,
        Context context)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_TARGET;
    }
}
