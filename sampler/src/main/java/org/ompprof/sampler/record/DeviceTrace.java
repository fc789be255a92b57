package org.ompprof.sampler.record;

import java.util.List;
import org.ompprof.sampler.wire.Wire;

/**
 * Records of one completed OMPT device trace buffer, in the device's clock; {@code timeNs} is
 * the host time the agent wrote them.
 */
public record DeviceTrace(int threadSeq, long timeNs, int deviceNum, List<Entry> entries) implements WireRecord {
    public DeviceTrace {
        entries = List.copyOf(entries);
    }

    /**
     * One device activity: {@code kind} is {@code Wire.TRACE_*}; for a target record
     * {@code optype} holds the endpoint and {@code endNs == startNs}.
     */
    public record Entry(long startNs, long endNs, long targetId, long hostOpId, long bytes, int kind, int optype) {}

    @Override
    public int type() {
        return Wire.REC_DEVICE_TRACE;
    }
}
