package org.ompprof.sampler.device;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.sampler.record.DeviceClock;
import org.ompprof.sampler.record.DeviceEvent;
import org.ompprof.sampler.record.DeviceTrace;
import org.ompprof.sampler.record.TargetDataOp;
import org.ompprof.sampler.record.TargetEvent;
import org.ompprof.sampler.record.TargetSubmit;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * Builds the device timeline from a recording's device records.
 *
 * <p>Host callbacks come per thread, each thread's records in time order; device trace records
 * come per device in the device's clock and, across buffers, not quite in order. The trace
 * records are put on the host clock with each device's {@link ClockFit} (from its clock pairs),
 * and all streams are merged by time ({@link TimestampMerge}) into one sequence in which each
 * begin meets its end. A kernel or transfer that a device traced takes the device's times;
 * the host callbacks' times stand in for the others (libomptarget 19 traces nothing).
 */
public final class DeviceTimelineBuilder {
    /** How far a record may come out of order within its stream: device trace buffers complete late. */
    static final long WINDOW_NS = 50_000_000L;

    private final TreeMap<Integer, List<WireRecord>> hostStreams = new TreeMap<>();
    private final TreeMap<Integer, List<DeviceTrace>> traces = new TreeMap<>();
    private final TreeMap<Integer, List<ClockPair>> clockPairs = new TreeMap<>();
    private final Map<Integer, String> devices = new TreeMap<>();

    /** Takes one record of the recording (any type; the device ones are kept). */
    public void add(WireRecord r) {
        switch (r) {
            case TargetEvent t -> host(t);
            case TargetSubmit t -> host(t);
            case TargetDataOp t -> host(t);
            case DeviceTrace t ->
                traces.computeIfAbsent(t.deviceNum(), d -> new ArrayList<>()).add(t);
            case DeviceClock c ->
                clockPairs
                        .computeIfAbsent(c.deviceNum(), d -> new ArrayList<>())
                        .add(new ClockPair(c.timeNs(), c.deviceNs()));
            case DeviceEvent d when d.event() == Wire.DEVICE_INIT -> devices.put(d.deviceNum(), d.deviceType());
            default -> {}
        }
    }

    private void host(WireRecord r) {
        hostStreams.computeIfAbsent(r.threadSeq(), s -> new ArrayList<>()).add(r);
    }

    public DeviceTimeline build() {
        Map<Integer, ClockFit> fits = new TreeMap<>();
        clockPairs.forEach((device, pairs) -> fits.put(device, ClockFitter.fit(pairs)));
        List<Iterator<? extends Timed>> streams = new ArrayList<>();
        hostStreams
                .values()
                .forEach(
                        records -> streams.add(records.stream().map(Timed::host).iterator()));
        traces.forEach(
                (device, batches) -> streams.add(traceStream(batches, fits.getOrDefault(device, ClockFit.identity()))));
        TimestampMerge<Timed> merged = new TimestampMerge<>(streams, Timed::timeNs, WINDOW_NS);
        Pairing pairing = new Pairing();
        merged.forEachRemaining(pairing::accept);
        List<DeviceActivity> out = pairing.activities();
        out.sort(Comparator.comparingLong(DeviceActivity::startNs)
                .thenComparingLong(DeviceActivity::endNs)
                .thenComparing(DeviceActivity::kind)
                .thenComparingLong(DeviceActivity::hostOpId));
        return new DeviceTimeline(out, devices, fits, pairing.unmatched(), merged.late());
    }

    private static Iterator<Timed> traceStream(List<DeviceTrace> batches, ClockFit fit) {
        return batches.stream()
                .flatMap(b -> b.entries().stream().map(e -> (Timed) new Timed.Traced(b.deviceNum(), e, fit)))
                .iterator();
    }

    /** A record on the host clock, for the merge. */
    sealed interface Timed {
        long timeNs();

        static Timed host(WireRecord r) {
            return new Host(r);
        }

        record Host(WireRecord record) implements Timed {
            public long timeNs() {
                return record.timeNs();
            }
        }

        record Traced(int deviceNum, DeviceTrace.Entry entry, ClockFit fit) implements Timed {
            public long timeNs() {
                return fit.toHost(entry.startNs());
            }
        }
    }

    /** Meets begins with their ends in the merged sequence; device-traced spans replace host-timed ones. */
    private static final class Pairing {
        private final LongObjectHashMap<TargetEvent> openRegions = new LongObjectHashMap<>();
        private final LongObjectHashMap<WireRecord> openOps = new LongObjectHashMap<>();
        private final LongObjectHashMap<DeviceActivity> traced = new LongObjectHashMap<>();
        private final LongObjectHashMap<DeviceActivity> hostTimed = new LongObjectHashMap<>();
        private final List<DeviceActivity> regions = new ArrayList<>();
        private final LongObjectHashMap<int[]> regionDevice = new LongObjectHashMap<>();

        void accept(Timed t) {
            switch (t) {
                case Timed.Host h -> host(h.record());
                case Timed.Traced tr -> traced(tr);
            }
        }

        private void host(WireRecord r) {
            switch (r) {
                case TargetEvent t
                when t.endpoint() == 1 -> {
                    openRegions.put(t.targetId(), t);
                    regionDevice.put(t.targetId(), new int[] {t.deviceNum()});
                }
                case TargetEvent t -> {
                    TargetEvent begin = openRegions.remove(t.targetId());
                    if (begin != null) {
                        regions.add(new DeviceActivity(
                                ActivityKind.REGION,
                                begin.deviceNum(),
                                begin.timeNs(),
                                t.timeNs(),
                                0,
                                t.targetId(),
                                0,
                                begin.threadSeq(),
                                begin.kind(),
                                -1,
                                -1,
                                false));
                    }
                }
                case TargetSubmit s when s.endpoint() == 1 -> openOps.put(s.hostOpId(), s);
                case TargetSubmit s -> {
                    if (openOps.remove(s.hostOpId()) instanceof TargetSubmit b) {
                        hostTimed.put(
                                s.hostOpId(),
                                new DeviceActivity(
                                        ActivityKind.KERNEL,
                                        deviceOf(b.targetId()),
                                        b.timeNs(),
                                        s.timeNs(),
                                        0,
                                        b.targetId(),
                                        b.hostOpId(),
                                        b.threadSeq(),
                                        0,
                                        -1,
                                        -1,
                                        false));
                    }
                }
                case TargetDataOp d when d.endpoint() == 1 -> openOps.put(d.hostOpId(), d);
                case TargetDataOp d -> {
                    if (openOps.remove(d.hostOpId()) instanceof TargetDataOp b) {
                        hostTimed.put(
                                d.hostOpId(),
                                new DeviceActivity(
                                        ActivityKind.ofDataOp(b.optype()),
                                        deviceOf(b),
                                        b.timeNs(),
                                        d.timeNs(),
                                        Math.max(b.bytes(), d.bytes()),
                                        b.targetId(),
                                        b.hostOpId(),
                                        b.threadSeq(),
                                        b.optype(),
                                        b.srcDeviceNum(),
                                        d.destDeviceNum(),
                                        false));
                    }
                }
                default -> {}
            }
        }

        /** The device a data operation works on: the region's, else whichever end is not the host. */
        private int deviceOf(TargetDataOp b) {
            int[] d = regionDevice.get(b.targetId());
            return d != null ? d[0] : Math.min(b.srcDeviceNum(), b.destDeviceNum());
        }

        private int deviceOf(long targetId) {
            int[] d = regionDevice.get(targetId);
            return d != null ? d[0] : -1;
        }

        private void traced(Timed.Traced t) {
            DeviceTrace.Entry e = t.entry();
            if (e.kind() == Wire.TRACE_TARGET || e.hostOpId() == 0) return; // regions come from the host callbacks
            ActivityKind kind = e.kind() == Wire.TRACE_KERNEL ? ActivityKind.KERNEL : ActivityKind.ofDataOp(e.optype());
            traced.put(
                    e.hostOpId(),
                    new DeviceActivity(
                            kind,
                            t.deviceNum(),
                            t.fit().toHost(e.startNs()),
                            t.fit().toHost(Math.max(e.startNs(), e.endNs())),
                            e.bytes(),
                            e.targetId(),
                            e.hostOpId(),
                            0,
                            e.kind() == Wire.TRACE_KERNEL ? 0 : e.optype(),
                            -1,
                            -1,
                            true));
        }

        List<DeviceActivity> activities() {
            List<DeviceActivity> out = new ArrayList<>(regions);
            hostTimed.forEachKeyValue((op, h) -> {
                DeviceActivity d = traced.remove(op);
                out.add(
                        d == null
                                ? h
                                : new DeviceActivity(
                                        h.kind(),
                                        h.deviceNum(),
                                        d.startNs(),
                                        d.endNs(),
                                        h.bytes(),
                                        h.targetId(),
                                        op,
                                        h.threadSeq(),
                                        h.detail(),
                                        h.srcDevice(),
                                        h.destDevice(),
                                        true));
            });
            out.addAll(traced.values()); // traced with no host callback seen: no launching thread known
            return out;
        }

        long unmatched() {
            return openRegions.size() + openOps.size();
        }
    }
}
