package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/** The host clock ({@code timeNs}) and a device's clock read together. */
public record DeviceClock(int threadSeq, long timeNs, long deviceNs, int deviceNum) implements WireRecord {
    @Override
    public int type() {
        return Wire.REC_DEVICE_CLOCK;
    }
}
