package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * A device was initialized, finalized, or had a code image loaded ({@code Wire.DEVICE_*} in
 * {@code event}); the load fields are 0 for the other two.
 *
 * @param deviceType the device's type as the runtime names it (initialize only, else empty)
 * @param flags {@code Wire.DEVICE_TRACING} when OMPT tracing was started for the device
 */
public record DeviceEvent(
        int threadSeq,
        long timeNs,
        int deviceNum,
        int event,
        int flags,
        String deviceType,
        long moduleId,
        long hostAddr,
        long deviceAddr,
        long bytes)
        implements WireRecord {
    public boolean tracing() {
        return (flags & Wire.DEVICE_TRACING) != 0;
    }

    @Override
    public int type() {
        return Wire.REC_DEVICE;
    }
}
