package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** A module was unmapped. */
public record ModuleUnload(int threadSeq, long timeNs, long moduleId) implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_MODULE_UNLOAD;
    }
}
