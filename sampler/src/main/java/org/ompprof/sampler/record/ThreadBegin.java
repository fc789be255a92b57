package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A thread began (ompt thread_begin); it owns slot {@code slot} and has stack [stackLo, stackHi). */
public record ThreadBegin(int threadSeq, long timeNs, int osTid, int threadType, long stackLo, long stackHi, int slot)
        implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_THREAD_BEGIN;
    }
}
