package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * Written once when OMPT connected.
 *
 * @param callbacksRegistered bit i set: OMPT callback i was registered with ompt_set_always
 */
public record AgentInfo(
        int threadSeq,
        long timeNs,
        long samplePeriodNs,
        int pid,
        int omptVersion,
        int mode,
        int rateHz,
        int stackBytes,
        long callbacksRegistered)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_AGENT_INFO;
    }
}
