package org.ompprof.calltree.build;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.MetricStorage;
import org.ompprof.calltree.MetricUnit;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.sampler.device.ActivityKind;
import org.ompprof.sampler.device.DeviceActivity;
import org.ompprof.sampler.device.DeviceTimeline;
import org.ompprof.sampler.device.DeviceTimelineBuilder;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.unwinder.stitch.Stitcher;

/**
 * Device activity into the profile: each kernel's and transfer's time charged to the calling
 * context that launched its target construct ({@value #KERNEL_METRIC}, {@value #TRANSFER_METRIC},
 * on the launching thread), and every activity kept for device lanes on a timeline. A program
 * that offloads nothing gets neither metric nor section.
 */
final class DeviceStage {
    static final String KERNEL_METRIC = "device_kernel";
    static final String TRANSFER_METRIC = "device_transfer";

    private DeviceStage() {}

    static DeviceTable apply(Recording recording, CallingContextTree tree, Stitcher stitcher, FrameNames names) {
        DeviceTimelineBuilder builder = new DeviceTimelineBuilder();
        recording
                .records(type -> type >= Wire.REC_DEVICE && type <= Wire.REC_DEVICE_CLOCK)
                .forEach(builder::add);
        DeviceTimeline timeline = builder.build();
        if (timeline.isEmpty()) return DeviceTable.empty();
        int kernel = tree.metrics()
                .register(
                        KERNEL_METRIC,
                        MetricUnit.NANOSECONDS,
                        "kernel time on a device, charged to the context that launched it",
                        MetricStorage.SPARSE,
                        null)
                .index();
        int transfer = tree.metrics()
                .register(
                        TRANSFER_METRIC,
                        MetricUnit.NANOSECONDS,
                        "data transfer time to and from devices, charged to the context that launched it",
                        MetricStorage.SPARSE,
                        null)
                .index();
        LongIntHashMap launchNodes = new LongIntHashMap();
        LongIntHashMap launchThreads = new LongIntHashMap();
        for (DeviceActivity a : timeline.activities()) {
            if (a.kind() == ActivityKind.REGION) launchThreads.put(a.targetId(), a.threadSeq());
        }
        List<DeviceTable.Activity> rows = new ArrayList<>(timeline.activities().size());
        for (DeviceActivity a : timeline.activities()) {
            int node = a.targetId() == 0
                    ? -1
                    : launchNodes.getIfAbsentPut(a.targetId(), () -> launchNode(tree, stitcher, names, a.targetId()));
            int thread = a.threadSeq() != 0 ? a.threadSeq() : launchThreads.getIfAbsent(a.targetId(), 0);
            int metric = a.kind() == ActivityKind.KERNEL ? kernel : a.kind() == ActivityKind.TRANSFER ? transfer : -1;
            if (metric >= 0 && node >= 0 && thread > 0 && thread <= CallingContextTree.MAX_THREAD)
                tree.add(node, thread, metric, a.durationNs());
            rows.add(new DeviceTable.Activity(
                    DeviceTable.Kind.valueOf(a.kind().name()),
                    a.deviceNum(),
                    a.startNs(),
                    a.endNs(),
                    a.bytes(),
                    thread,
                    node,
                    a.detail(),
                    a.srcDevice(),
                    a.destDevice(),
                    a.targetId(),
                    a.hostOpId(),
                    a.fromTrace()));
        }
        List<DeviceTable.Device> devices = new ArrayList<>();
        timeline.devices().entrySet().stream()
                .sorted(java.util.Map.Entry.comparingByKey())
                .forEach(e -> devices.add(new DeviceTable.Device(e.getKey(), e.getValue())));
        return new DeviceTable(devices, rows, timeline.unmatched(), timeline.late());
    }

    private static int launchNode(CallingContextTree tree, Stitcher stitcher, FrameNames names, long targetId) {
        return tree.path(names.path(stitcher.targetContext(targetId)));
    }
}
