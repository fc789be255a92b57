package org.ompprof.ui.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ompprof.calltree.profile.DeviceTable;

class DeviceBarsTest {
    static LongStream seeds() {
        return LongStream.range(1, 21);
    }

    /**
     * Random activities on three devices and a random window: exactly the device's regions,
     * kernels and transfers that overlap the window get a bar, regions first, each bar inside
     * the plot, at least a pixel wide, and covering the columns its times map to.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void barsCoverTheirActivitiesInTheWindow(long seed) {
        Random r = new Random(seed);
        List<DeviceTable.Activity> acts = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long s = r.nextLong(0, 1_000_000_000L);
            DeviceTable.Kind kind = DeviceTable.Kind.values()[r.nextInt(4)];
            acts.add(new DeviceTable.Activity(
                    kind, r.nextInt(3), s, s + r.nextLong(0, 50_000_000L), 0, 1, -1, 0, -1, -1, i, i, false));
        }
        acts.sort(Comparator.comparingLong(DeviceTable.Activity::startNs));
        DeviceTable t = new DeviceTable(List.of(), acts);
        long from = r.nextLong(0, 900_000_000L), to = from + r.nextLong(1_000, 100_000_000L);
        int px = 200 + r.nextInt(1500), device = r.nextInt(3);
        List<DeviceBars.Bar> bars = DeviceBars.layout(t, device, from, to, px);
        long expected = acts.stream()
                .filter(a -> a.device() == device
                        && a.kind() != DeviceTable.Kind.MEMORY
                        && a.endNs() >= from
                        && a.startNs() < to)
                .count();
        assertEquals(expected, bars.size());
        boolean workSeen = false;
        double perPx = (double) (to - from) / px;
        for (DeviceBars.Bar b : bars) {
            DeviceTable.Activity a = acts.get(b.index());
            assertEquals(device, a.device());
            assertEquals(a.kind(), b.kind());
            if (b.kind() == DeviceTable.Kind.REGION) assertTrue(!workSeen, "regions are drawn first, under the work");
            else workSeen = true;
            assertTrue(0 <= b.x0() && b.x0() < b.x1() && b.x1() <= px, b.toString());
            long visibleStart = Math.max(a.startNs(), from), visibleEnd = Math.min(a.endNs(), to);
            assertTrue(b.x0() * perPx <= visibleStart - from + 1e-6, b + " starts after " + a);
            assertTrue(b.x1() * perPx >= visibleEnd - from - 1e-6, b + " ends before " + a);
        }
    }

    @Test
    void aShortKernelInALongWindowIsOnePixelAndMemoryOpsAreNotDrawn() {
        DeviceTable t = new DeviceTable(
                List.of(new DeviceTable.Device(0, "generic-64bit")),
                List.of(
                        new DeviceTable.Activity(DeviceTable.Kind.MEMORY, 0, 100, 200, 64, 1, -1, 1, 4, 0, 1, 1, false),
                        new DeviceTable.Activity(
                                DeviceTable.Kind.KERNEL,
                                0,
                                5_000_000_000L,
                                5_000_001_000L,
                                0,
                                1,
                                -1,
                                0,
                                -1,
                                -1,
                                1,
                                2,
                                false)));
        assertEquals(
                List.of(new DeviceBars.Bar(500, 501, DeviceTable.Kind.KERNEL, 1)),
                DeviceBars.layout(t, 0, 0, 10_000_000_000L, 1000));
        assertEquals(List.of(0), DeviceBars.devices(t));
        assertEquals(List.of(), DeviceBars.layout(t, 1, 0, 10_000_000_000L, 1000));
    }
}
