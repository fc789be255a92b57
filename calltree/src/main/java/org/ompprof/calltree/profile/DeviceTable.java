package org.ompprof.calltree.profile;

import java.util.List;

/**
 * What the devices did, for device lanes on a timeline and device totals: the devices, and
 * every target region, kernel, transfer and memory operation on the host clock, ordered by
 * start.
 *
 * @param unmatched begins whose end was never recorded (the program died, or a record was dropped): not in the table
 * @param late records that came later than the timestamp merge's window allowed (in the table, their order repaired)
 */
public record DeviceTable(List<Device> devices, List<Activity> activities, long unmatched, long late) {
    public enum Kind {
        REGION,
        KERNEL,
        TRANSFER,
        MEMORY
    }

    /** @param type the runtime's name for the device's kind, e.g. {@code generic-64bit} */
    public record Device(int number, String type) {}

    /**
     * @param thread the thread that launched it (0 if unknown)
     * @param launchNode the tree node of the launching calling context, -1 if unknown
     * @param detail a region's {@code ompt_target_t}, a data operation's {@code ompt_target_data_op_t}, else 0
     * @param srcDevice a data operation's source device (-1 if none)
     * @param destDevice a data operation's destination device (-1 if none)
     * @param fromTrace timed by the device's own trace rather than host callbacks
     */
    public record Activity(
            Kind kind,
            int device,
            long startNs,
            long endNs,
            long bytes,
            int thread,
            int launchNode,
            int detail,
            int srcDevice,
            int destDevice,
            long targetId,
            long hostOpId,
            boolean fromTrace) {
        public long durationNs() {
            return endNs - startNs;
        }
    }

    public DeviceTable {
        devices = List.copyOf(devices);
        activities = List.copyOf(activities);
    }

    public DeviceTable(List<Device> devices, List<Activity> activities) {
        this(devices, activities, 0, 0);
    }

    public static DeviceTable empty() {
        return new DeviceTable(List.of(), List.of());
    }

    public boolean isEmpty() {
        return devices.isEmpty() && activities.isEmpty();
    }

    /**
     * Device numbers used here are below this: the highest (of devices, activities, sources, destinations) plus one, 0
     * if none.
     */
    public int span() {
        int highest = -1;
        for (Device d : devices) highest = Math.max(highest, d.number());
        for (Activity a : activities)
            highest = Math.max(highest, Math.max(a.device(), Math.max(a.srcDevice(), a.destDevice())));
        return highest + 1;
    }

    /**
     * The table in another profile (when profiles are merged): node n becomes {@code nodeMap[n]},
     * threads move up by {@code threadOffset} and devices by {@code deviceOffset} (so that two
     * runs' device 0 stay two lanes); unknown nodes, threads and devices stay unknown.
     */
    public DeviceTable remapped(int[] nodeMap, int threadOffset, int deviceOffset) {
        List<Device> ds = devices.stream()
                .map(d -> new Device(d.number() + deviceOffset, d.type()))
                .toList();
        List<Activity> as = activities.stream()
                .map(a -> new Activity(
                        a.kind(),
                        a.device() + deviceOffset,
                        a.startNs(),
                        a.endNs(),
                        a.bytes(),
                        a.thread() == 0 ? 0 : a.thread() + threadOffset,
                        a.launchNode() < 0 ? -1 : nodeMap[a.launchNode()],
                        a.detail(),
                        a.srcDevice() < 0 ? -1 : a.srcDevice() + deviceOffset,
                        a.destDevice() < 0 ? -1 : a.destDevice() + deviceOffset,
                        a.targetId(),
                        a.hostOpId(),
                        a.fromTrace()))
                .toList();
        return new DeviceTable(ds, as, unmatched, late);
    }
}
