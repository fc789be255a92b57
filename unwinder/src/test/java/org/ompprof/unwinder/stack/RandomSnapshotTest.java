package org.ompprof.unwinder.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.stack.SelfStackFixture.Build;
import org.ompprof.unwinder.stack.SelfStackFixture.Case;
import org.ompprof.unwinder.stack.SelfStackFixture.Scenario;

/**
 * Random registers and stacks seeded with plausible code and stack addresses, over a real
 * address space: every unwind ends with a result, within the depth limit, and every pc after
 * the first was read from the snapshot.
 */
class RandomSnapshotTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void randomStacksEndCleanly(long seed) throws Exception {
        Build build = Build.values()[(int) (seed % Build.values().length)];
        AddressSpace space = SelfStackFixture.addressSpace(SelfStackFixture.capture(new Case(build, Scenario.SIGNAL)));
        List<AddressRange> code =
                space.modules().stream().flatMap(m -> m.ranges().stream()).toList();
        Random rnd = new Random(seed);
        StackUnwinder unwinder = new StackUnwinder(space);
        java.util.Map<Termination, Integer> endings = new java.util.TreeMap<>();
        int frames = 0;
        for (int round = 0; round < 300; round++) {
            long base = 0x7ffc_0000_0000L + 16L * rnd.nextInt(1 << 20);
            byte[] stack = randomStack(rnd, base, code);
            long rip = rnd.nextInt(8) == 0 ? rnd.nextLong() : randomCodeAddress(rnd, code);
            long rbp = rnd.nextBoolean() ? base + 8L * rnd.nextInt(Math.max(1, stack.length / 8)) : rnd.nextLong();
            UnwindResult r = unwinder.unwind(new Registers(rip, base, rbp), new StackSnapshot(base, stack));
            check(r, rip, stack);
            endings.merge(r.termination(), 1, Integer::sum);
            frames += r.frames().size();
        }
        System.out.printf("seed %d (%s): %d frames, endings %s%n", seed, build, frames, endings);
    }

    private static void check(UnwindResult r, long rip, byte[] stack) {
        assertNotNull(r.termination());
        assertNotNull(r.detail());
        assertEquals(rip, r.frames().get(0).pc());
        assertTrue(r.frames().size() <= StackUnwinder.DEFAULT_MAX_DEPTH);
        for (int i = 1; i < r.frames().size(); i++) {
            assertTrue(occursIn(stack, r.frames().get(i).pc()), "frame " + i + " was not read from the snapshot");
        }
        for (int i = 0; i < r.frames().size() - 1; i++)
            assertNotNull(r.frames().get(i).module());
    }

    /**
     * Whether {@code value} is stored at any (not only aligned) offset: CFA offsets from random data need not be
     * aligned.
     */
    private static boolean occursIn(byte[] stack, long value) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(stack).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 8 <= stack.length; i++) {
            if (b.getLong(i) == value) return true;
        }
        return false;
    }

    private static byte[] randomStack(Random rnd, long base, List<AddressRange> code) {
        byte[] stack = new byte[8 * rnd.nextInt(2048)];
        rnd.nextBytes(stack);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(stack).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 8 <= stack.length; i += 8) {
            switch (rnd.nextInt(4)) {
                case 0 -> b.putLong(i, randomCodeAddress(rnd, code));
                case 1 -> b.putLong(i, base + 8L * rnd.nextInt(Math.max(1, stack.length / 8)));
                case 2 -> b.putLong(i, rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(256));
                default -> {}
            }
        }
        return stack;
    }

    private static long randomCodeAddress(Random rnd, List<AddressRange> code) {
        AddressRange r = code.get(rnd.nextInt(code.size()));
        return r.start() + (long) (rnd.nextDouble() * (r.end() - r.start()));
    }
}
