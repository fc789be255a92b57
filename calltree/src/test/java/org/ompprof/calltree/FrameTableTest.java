package org.ompprof.calltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameTableTest {
    @Test
    void internGivesDenseStableIds() {
        FrameTable table = new FrameTable();
        int a = table.intern(Frame.of(FrameKind.USER, "app", "main", "app.c", 3));
        int b = table.intern(Frame.OMP_IDLE);
        assertEquals(0, a);
        assertEquals(1, b);
        assertEquals(a, table.intern(Frame.of(FrameKind.USER, "app", "main", "app.c", 3)));
        assertEquals(2, table.size());
        assertEquals(Frame.OMP_IDLE, table.frame(b));
        assertEquals(-1, table.find(Frame.TRUNCATED));
    }

    @Test
    void everyFieldTellsFramesApart() {
        FrameTable table = new FrameTable();
        int base = table.intern(Frame.of(FrameKind.USER, "app", "f", "f.c", 1));
        assertNotEquals(base, table.intern(Frame.of(FrameKind.INLINED, "app", "f", "f.c", 1)));
        assertNotEquals(base, table.intern(Frame.of(FrameKind.USER, "lib", "f", "f.c", 1)));
        assertNotEquals(base, table.intern(Frame.of(FrameKind.USER, "app", "f", "f.c", 2)));
        assertNotEquals(base, table.intern(Frame.of(FrameKind.USER, "app", "f", null, 1)));
    }

    /** Frames are equal exactly when every field is, and equal frames hash alike (random frames from small pools). */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void equalExactlyWhenEveryFieldIs(long seed) {
        Random rnd = new Random(seed);
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < 400; i++) frames.add(randomFrame(rnd));
        for (Frame a : frames) {
            for (Frame b : frames) {
                boolean same = fields(a).equals(fields(b));
                assertEquals(same, a.equals(b), a + " / " + b);
                if (same) assertEquals(a.hashCode(), b.hashCode());
            }
        }
        assertNotEquals(null, frames.getFirst());
    }

    private static Frame randomFrame(Random rnd) {
        String[] names = {null, "f", "g"};
        String function = names[rnd.nextInt(3)];
        String module = function == null ? "app" : names[rnd.nextInt(3)];
        return new Frame(
                FrameKind.values()[rnd.nextInt(2)],
                module,
                function,
                names[rnd.nextInt(3)],
                rnd.nextInt(2),
                rnd.nextInt(2),
                names[rnd.nextInt(3)]);
    }

    private static List<Object> fields(Frame f) {
        return Arrays.asList(f.kind(), f.module(), f.function(), f.file(), f.line(), f.offset(), f.symbol());
    }

    @Test
    void offsetsOnlyNameFramesWithoutAFunction() {
        assertEquals(
                Frame.of(FrameKind.USER, "app", "f", null, 0), new Frame(FrameKind.USER, "app", "f", null, 0, 0x40));
        assertNotEquals(Frame.unresolved(FrameKind.USER, "app", 1), Frame.unresolved(FrameKind.USER, "app", 2));
    }

    @Test
    void displayNames() {
        Frame resolved = Frame.of(FrameKind.USER, "/opt/app/bin/app", "solve", "src/solve.c", 42);
        assertEquals("solve", resolved.name());
        assertEquals("solve (src/solve.c:42)", resolved.detailedName());
        assertEquals(
                "solve (src/solve.c)",
                Frame.of(FrameKind.USER, "app", "solve", "src/solve.c", 0).detailedName());
        assertEquals("solve", Frame.of(FrameKind.USER, "app", "solve", null, 7).detailedName());
        Frame unresolved = Frame.unresolved(FrameKind.RUNTIME, "/usr/lib/llvm-19/lib/libomp.so.5", 0x1a2b);
        assertEquals("libomp.so.5+0x1a2b", unresolved.name());
        assertEquals("libomp.so.5+0x1a2b", unresolved.detailedName());
        assertEquals("<omp idle>", Frame.OMP_IDLE.name());
        assertEquals(FrameKind.PLACEHOLDER, Frame.TRUNCATED.kind());
    }

    @Test
    void badFramesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Frame.of(FrameKind.USER, null, null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> Frame.of(FrameKind.USER, "m", "f", null, -1));
        assertThrows(NullPointerException.class, () -> Frame.of(null, "m", "f", null, 0));
    }

    @Test
    void importAllMapsIdsOfAnotherTable() {
        FrameTable a = new FrameTable();
        a.intern(Frame.OMP_IDLE);
        FrameTable b = new FrameTable();
        b.intern(Frame.TRUNCATED);
        b.intern(Frame.OMP_IDLE);
        assertArrayEquals(new int[] {1, 0}, a.importAll(b));
    }
}
