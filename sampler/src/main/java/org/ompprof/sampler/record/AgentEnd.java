package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** Written once at OMPT finalize. */
public record AgentEnd(int threadSeq, long timeNs, long timersFailed, long threadsSeen) implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_AGENT_END;
    }
}
