package org.ompprof.sampler.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.DeviceClock;
import org.ompprof.sampler.record.DeviceEvent;
import org.ompprof.sampler.record.DeviceTrace;
import org.ompprof.sampler.record.TargetDataOp;
import org.ompprof.sampler.record.TargetEvent;
import org.ompprof.sampler.record.TargetSubmit;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

class DeviceTimelineBuilderTest {
    private static final Context NO_STACK = new Context(0, 0, 0, 0, MemorySegment.ofArray(new byte[0]));

    static LongStream seeds() {
        return LongStream.range(1, 31);
    }

    /** What the synthetic program did, to compare the timeline with. */
    record Truth(long targetId, long hostOpId, ActivityKind kind, long startNs, long endNs, long bytes, int thread) {}

    /**
     * Threads launch target regions, each with transfers in, one kernel and transfers out, all
     * timed by host callbacks; the records of all threads are handed over in a random
     * interleaving. Every activity comes out once, with its times, bytes and launching thread,
     * every kernel and transfer inside its region, and the list ordered by start.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void hostCallbacksPairIntoActivitiesInsideTheirRegions(long seed) {
        Random r = new Random(seed);
        List<List<WireRecord>> perThread = new ArrayList<>();
        List<Truth> truth = new ArrayList<>();
        long[] ids = {1};
        int threads = 1 + r.nextInt(4);
        for (int thread = 1; thread <= threads; thread++) perThread.add(program(r, thread, ids, truth));
        DeviceTimelineBuilder b = new DeviceTimelineBuilder();
        b.add(new DeviceEvent(1, 0, 0, Wire.DEVICE_INIT, 0, "generic-64bit", 0, 0, 0, 0));
        interleave(perThread, r).forEach(b::add);
        DeviceTimeline t = b.build();

        assertEquals(Map.of(0, "generic-64bit"), t.devices());
        assertEquals(0, t.unmatched());
        assertEquals(truth.size(), t.activities().size());
        for (Truth x : truth) {
            DeviceActivity a = t.activities().stream()
                    .filter(d -> d.targetId() == x.targetId() && d.hostOpId() == x.hostOpId())
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    List.of(x.kind(), x.startNs(), x.endNs(), x.bytes(), x.thread()),
                    List.of(a.kind(), a.startNs(), a.endNs(), a.bytes(), a.threadSeq()),
                    x.toString());
        }
        for (DeviceActivity a : t.activities()) {
            if (a.kind() == ActivityKind.REGION) continue;
            DeviceActivity region = t.activities().stream()
                    .filter(d -> d.kind() == ActivityKind.REGION && d.targetId() == a.targetId())
                    .findFirst()
                    .orElseThrow();
            assertTrue(region.startNs() <= a.startNs() && a.endNs() <= region.endNs(), a + " outside " + region);
        }
        for (int i = 1; i < t.activities().size(); i++) {
            assertTrue(
                    t.activities().get(i - 1).startNs() <= t.activities().get(i).startNs());
        }
    }

    /**
     * A device that traces its kernels in its own clock (offset and drift) with clock pairs:
     * the kernel takes the device's times, mapped to the host clock within a microsecond.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void tracedKernelsTakeTheDeviceTimesOnTheHostClock(long seed) {
        Random r = new Random(seed);
        long offset = r.nextLong(-1L << 40, 1L << 40);
        double drift = (r.nextDouble() * 2 - 1) * 100e-6;
        long hostStart = 1_000_000_000L + r.nextLong(1L << 30);
        DeviceTimelineBuilder b = new DeviceTimelineBuilder();
        List<DeviceTrace.Entry> entries = new ArrayList<>();
        List<long[]> kernels = new ArrayList<>();
        long h = hostStart;
        for (int k = 0; k < 40; k++) {
            long target = 100 + k, op = 1_000 + k;
            long begin = h += r.nextLong(1_000, 100_000);
            long kStart = h += r.nextLong(1_000, 50_000), kEnd = h += r.nextLong(1_000, 10_000_000);
            long end = h += r.nextLong(1_000, 100_000);
            b.add(new TargetEvent(1, begin, target, 1, 0, 0, 0, 0, 1, 1, NO_STACK));
            b.add(new TargetSubmit(1, begin + 10, target, op, 0, 1));
            b.add(new TargetSubmit(1, end - 10, target, op, 0, 2));
            b.add(new TargetEvent(1, end, target, 1, 0, 0, 0, 0, 1, 2, NO_STACK));
            entries.add(new DeviceTrace.Entry(
                    toDevice(kStart, hostStart, offset, drift),
                    toDevice(kEnd, hostStart, offset, drift),
                    target,
                    op,
                    0,
                    Wire.TRACE_KERNEL,
                    0));
            kernels.add(new long[] {op, kStart, kEnd});
        }
        for (long t = hostStart; t < h; t += (h - hostStart) / 20) {
            b.add(new DeviceClock(2, t, toDevice(t, hostStart, offset, drift) + r.nextLong(-300, 301), 1));
        }
        Collections.shuffle(entries, r); // a buffer need not be in order
        for (int i = 0; i < entries.size(); i += 16) {
            b.add(new DeviceTrace(2, h, 1, entries.subList(i, Math.min(entries.size(), i + 16))));
        }
        DeviceTimeline t = b.build();
        for (long[] k : kernels) {
            DeviceActivity a = t.activities().stream()
                    .filter(d -> d.hostOpId() == k[0])
                    .findFirst()
                    .orElseThrow();
            assertTrue(a.fromTrace());
            assertEquals(ActivityKind.KERNEL, a.kind());
            assertTrue(
                    Math.abs(a.startNs() - k[1]) < 1_000 && Math.abs(a.endNs() - k[2]) < 1_000,
                    a + " vs " + k[1] + ".." + k[2]);
            assertEquals(1, a.threadSeq());
        }
        assertEquals(80, t.activities().size());
    }

    /** Begins whose end never came (a crash, a dropped record) are counted and left out. */
    @org.junit.jupiter.api.Test
    void beginsWithoutEndsAreCountedNotInvented() {
        DeviceTimelineBuilder b = new DeviceTimelineBuilder();
        b.add(new TargetEvent(1, 100, 7, 1, 0, 0, 0, 0, 1, 1, NO_STACK));
        b.add(new TargetSubmit(1, 110, 7, 8, 0, 1));
        b.add(new TargetSubmit(1, 120, 7, 8, 0, 2));
        b.add(new TargetDataOp(1, 130, 7, 9, 1, 2, 64, 0, 0, 4, 3, 1));
        DeviceTimeline t = b.build();
        assertEquals(2, t.unmatched());
        assertEquals(
                List.of(ActivityKind.KERNEL),
                t.activities().stream().map(DeviceActivity::kind).toList());
    }

    private static long toDevice(long host, long anchor, long offset, double drift) {
        return host - offset + Math.round(drift * (host - anchor));
    }

    /** One thread's target regions; appends what each activity is to {@code truth}. */
    private static List<WireRecord> program(Random r, int thread, long[] ids, List<Truth> truth) {
        List<WireRecord> out = new ArrayList<>();
        long t = r.nextLong(1_000_000);
        for (int region = r.nextInt(1, 6); region > 0; region--) {
            long target = ids[0]++;
            long begin = t += r.nextLong(1, 10_000);
            out.add(new TargetEvent(thread, begin, target, 1, 0x401000, 0, 0, 0, 1, 1, NO_STACK));
            for (int op = r.nextInt(0, 4); op >= 0; op--) {
                boolean kernel = op == 0;
                long id = ids[0]++, s = t += r.nextLong(1, 1_000), e = t += r.nextLong(0, 100_000);
                if (kernel) {
                    out.add(new TargetSubmit(thread, s, target, id, 0, 1));
                    out.add(new TargetSubmit(thread, e, target, id, 0, 2));
                    truth.add(new Truth(target, id, ActivityKind.KERNEL, s, e, 0, thread));
                } else {
                    int optype = r.nextInt(1, 5);
                    long bytes = r.nextLong(1, 1L << 30);
                    out.add(new TargetDataOp(thread, s, target, id, 1, 0, bytes, 0, 4, 0, optype, 1));
                    out.add(new TargetDataOp(thread, e, target, id, 1, 2, bytes, 0, 4, 0, optype, 2));
                    truth.add(new Truth(target, id, ActivityKind.ofDataOp(optype), s, e, bytes, thread));
                }
            }
            long end = t += r.nextLong(1, 1_000);
            out.add(new TargetEvent(thread, end, target, 1, 0x401000, 0, 0, 0, 1, 2, NO_STACK));
            truth.add(new Truth(target, 0, ActivityKind.REGION, begin, end, 0, thread));
        }
        return out;
    }

    /** The threads' records in a random interleaving that keeps each thread's own order. */
    private static List<WireRecord> interleave(List<List<WireRecord>> streams, Random r) {
        List<WireRecord> out = new ArrayList<>();
        int[] next = new int[streams.size()];
        while (true) {
            List<Integer> open = new ArrayList<>();
            for (int i = 0; i < streams.size(); i++)
                if (next[i] < streams.get(i).size()) open.add(i);
            if (open.isEmpty()) return out;
            int s = open.get(r.nextInt(open.size()));
            out.add(streams.get(s).get(next[s]++));
        }
    }
}
