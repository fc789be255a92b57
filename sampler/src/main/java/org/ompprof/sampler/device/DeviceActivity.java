package org.ompprof.sampler.device;

/**
 * One span of device work on the host clock, tied to its launch: the target region
 * ({@code targetId}) whose begin record holds the launching thread's calling context.
 *
 * @param hostOpId the OMPT host operation id (0 for a region)
 * @param threadSeq the thread that launched it
 * @param detail for a region its {@code ompt_target_t} kind, for a data operation its {@code ompt_target_data_op_t},
 * else 0
 * @param srcDevice source device of a data operation (the host is the device number after the last device)
 * @param destDevice destination device of a data operation
 * @param fromTrace whether the times come from the device's own trace (device clock, fitted to the host's) rather than
 * host callbacks
 */
public record DeviceActivity(
        ActivityKind kind,
        int deviceNum,
        long startNs,
        long endNs,
        long bytes,
        long targetId,
        long hostOpId,
        int threadSeq,
        int detail,
        int srcDevice,
        int destDevice,
        boolean fromTrace) {
    public long durationNs() {
        return Math.max(0, endNs - startNs);
    }
}
