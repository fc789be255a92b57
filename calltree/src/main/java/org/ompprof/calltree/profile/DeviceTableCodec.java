package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * The DEVICES section: the devices (number, type), then the activities ordered by start, each
 * start as the difference from the previous one so that a long run costs a few bytes per
 * activity; then the unmatched and late counts.
 */
public final class DeviceTableCodec {
    private static final int KINDS = DeviceTable.Kind.values().length;
    private static final int FLAG_TRACE = 1;

    private DeviceTableCodec() {}

    public static byte[] encode(DeviceTable t) {
        ByteSink out = new ByteSink();
        out.varint(t.devices().size());
        for (DeviceTable.Device d : t.devices()) {
            out.zigzag(d.number());
            out.string(d.type());
        }
        out.varint(t.activities().size());
        long previous = 0;
        for (DeviceTable.Activity a : t.activities()) {
            out.u8(a.kind().ordinal());
            out.zigzag(a.device());
            out.zigzag(a.startNs() - previous);
            previous = a.startNs();
            out.varint(a.durationNs());
            out.varint(a.bytes());
            out.varint(a.thread());
            out.varint(a.launchNode() + 1L);
            out.varint(a.detail());
            out.zigzag(a.srcDevice());
            out.zigzag(a.destDevice());
            out.varint(a.targetId());
            out.varint(a.hostOpId());
            out.u8(a.fromTrace() ? FLAG_TRACE : 0);
        }
        out.varint(t.unmatched());
        out.varint(t.late());
        return out.toByteArray();
    }

    /** @param nodes the tree's size: every launch node must be below it */
    public static DeviceTable decode(byte[] payload, int nodes) {
        ByteSource in = new ByteSource(payload);
        int n = in.count(2, "devices");
        List<DeviceTable.Device> devices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) devices.add(new DeviceTable.Device(deviceNumber(in), in.string()));
        int m = in.count(14, "device activities");
        List<DeviceTable.Activity> activities = new ArrayList<>(m);
        long start = 0;
        for (int i = 0; i < m; i++) {
            DeviceTable.Kind kind = DeviceTable.Kind.values()[in.bounded(KINDS - 1, "activity kind")];
            int device = deviceNumber(in);
            long delta = in.zigzag();
            if (i > 0 && delta < 0) throw in.fail("activities out of order");
            start += delta;
            long duration = nonNegative(in, "duration");
            long bytes = nonNegative(in, "bytes");
            int thread = in.bounded(Integer.MAX_VALUE, "thread");
            int node = in.bounded(nodes, "launch node") - 1;
            int detail = in.bounded(Integer.MAX_VALUE, "detail");
            int src = deviceNumber(in), dest = deviceNumber(in);
            long targetId = in.varint(), hostOpId = in.varint();
            int flags = in.bounded(FLAG_TRACE, "activity flags");
            if (start + duration < start) throw in.fail("activity ends past the end of time");
            activities.add(new DeviceTable.Activity(
                    kind,
                    device,
                    start,
                    start + duration,
                    bytes,
                    thread,
                    node,
                    detail,
                    src,
                    dest,
                    targetId,
                    hostOpId,
                    flags == FLAG_TRACE));
        }
        long unmatched = nonNegative(in, "unmatched count"), late = nonNegative(in, "late count");
        in.end("device table");
        return new DeviceTable(devices, activities, unmatched, late);
    }

    private static int deviceNumber(ByteSource in) {
        long v = in.zigzag();
        if (v < -1 || v > Integer.MAX_VALUE) throw in.fail("device number " + v + " out of range");
        return (int) v;
    }

    private static long nonNegative(ByteSource in, String what) {
        long v = in.varint();
        if (v < 0) throw in.fail(what + " " + Long.toUnsignedString(v) + " too large");
        return v;
    }
}
