package org.ompprof.calltree.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.recording.BadSectionException;

class DeviceTableCodecTest {
    private static final int NODES = 400;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void roundTrips(long seed) {
        DeviceTable t = random(new Random(seed), 1 + (int) seed * 50);
        assertEquals(t, DeviceTableCodec.decode(DeviceTableCodec.encode(t), NODES));
    }

    @Test
    void emptyRoundTrips() {
        assertEquals(DeviceTable.empty(), DeviceTableCodec.decode(DeviceTableCodec.encode(DeviceTable.empty()), 0));
    }

    @Test
    void aLaunchNodeOutsideTheTreeIsRefused() {
        DeviceTable t = new DeviceTable(
                List.of(new DeviceTable.Device(0, "generic-64bit")),
                List.of(new DeviceTable.Activity(
                        DeviceTable.Kind.KERNEL, 0, 100, 200, 0, 1, 9, 0, -1, -1, 1, 2, false)));
        BadSectionException e =
                assertThrows(BadSectionException.class, () -> DeviceTableCodec.decode(DeviceTableCodec.encode(t), 5));
        assertTrue(e.getMessage().contains("launch node"), e.getMessage());
    }

    /** Every prefix fails; random damage decodes or fails with an offset inside the section, quickly. */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void damagedSectionsFailCleanly(long seed) {
        Random r = new Random(seed);
        byte[] good = DeviceTableCodec.encode(random(r, 60));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int length = 0; length < good.length; length++) decodeOrFail(Arrays.copyOf(good, length), true);
            for (int i = 0; i < 3000; i++) {
                byte[] bad = good.clone();
                for (int k = 1 + r.nextInt(4); k > 0; k--) bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
                decodeOrFail(bad, false);
            }
            for (int i = 0; i < 300; i++) {
                byte[] noise = new byte[r.nextInt(200)];
                r.nextBytes(noise);
                decodeOrFail(noise, false);
            }
        });
    }

    private static void decodeOrFail(byte[] bytes, boolean mustFail) {
        try {
            DeviceTable t = DeviceTableCodec.decode(bytes, NODES);
            if (mustFail && bytes.length > 1)
                throw new AssertionError("a cut section of " + bytes.length + " bytes decoded");
            for (DeviceTable.Activity a : t.activities())
                assertTrue(a.endNs() >= a.startNs() && a.launchNode() < NODES);
        } catch (BadSectionException e) {
            assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, "offset " + e.offset() + " of " + bytes.length);
            assertTrue(!e.getMessage().isBlank());
        }
    }

    static DeviceTable random(Random r, int n) {
        List<DeviceTable.Device> devices = new ArrayList<>();
        for (int d = r.nextInt(5); d > 0; d--)
            devices.add(new DeviceTable.Device(devices.size(), r.nextBoolean() ? "generic-64bit" : "gfx90a"));
        List<DeviceTable.Activity> activities = new ArrayList<>();
        long t = r.nextLong(1L << 45);
        for (int i = 0; i < n; i++) {
            t += r.nextInt(3) == 0 ? 0 : r.nextLong(1 << 20);
            DeviceTable.Kind kind = DeviceTable.Kind.values()[r.nextInt(DeviceTable.Kind.values().length)];
            activities.add(new DeviceTable.Activity(
                    kind,
                    r.nextInt(-1, 4),
                    t,
                    t + r.nextLong(1L << 32),
                    r.nextLong(1L << 40),
                    r.nextInt(1, 64),
                    r.nextInt(-1, NODES),
                    r.nextInt(20),
                    r.nextInt(-1, 5),
                    r.nextInt(-1, 5),
                    r.nextLong(1L << 40),
                    r.nextLong(1L << 40),
                    r.nextBoolean()));
        }
        activities.sort(Comparator.comparingLong(DeviceTable.Activity::startNs));
        return new DeviceTable(
                devices,
                activities,
                r.nextInt(3) == 0 ? r.nextLong(1L << 40) : 0,
                r.nextInt(3) == 0 ? r.nextInt(100) : 0);
    }
}
