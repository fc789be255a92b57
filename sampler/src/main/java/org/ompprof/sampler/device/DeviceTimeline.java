package org.ompprof.sampler.device;

import java.util.List;
import java.util.Map;

/**
 * Every device activity of a recording on the host clock, ordered by start, with the clock fit
 * used for each traced device.
 *
 * @param devices device number to its type name, for the devices that were initialized
 * @param unmatched begin records whose end never came (the program died or a record was dropped)
 * @param late records that came later than the merge window allowed (kept, but out of order)
 */
public record DeviceTimeline(
        List<DeviceActivity> activities,
        Map<Integer, String> devices,
        Map<Integer, ClockFit> clocks,
        long unmatched,
        long late) {
    public DeviceTimeline {
        activities = List.copyOf(activities);
        devices = Map.copyOf(devices);
        clocks = Map.copyOf(clocks);
    }

    public static DeviceTimeline empty() {
        return new DeviceTimeline(List.of(), Map.of(), Map.of(), 0, 0);
    }

    public boolean isEmpty() {
        return activities.isEmpty() && devices.isEmpty();
    }
}
