package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The primitive task table against a plain map of origins, over seeded random creations. */
class TaskOriginsTest {
    private static Segment segment(long pc) {
        return new Segment(List.of(new PathFrame.Code(1, "/bin/prog", pc, true)), Gap.NONE);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void keepsWhatAMapOfOriginsKeeps(long seed) {
        Random rnd = new Random(seed);
        TaskOrigins table = new TaskOrigins();
        Map<Long, Creations.Origin> want = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            // ids mostly dense and growing, some far, some again, some below zero (a damaged recording); a few
            // segments,
            // made anew each time as records do, equal ones sharing an index
            long id = switch (rnd.nextInt(8)) {
                case 0 -> rnd.nextLong();
                case 1 -> rnd.nextInt(3_000_000); // past the arrays until enough tasks were seen, then in them
                default -> rnd.nextInt(60_000) + (i / 50_000L) * 60_000;
            };
            long parent = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(60_000);
            Segment s = segment(0x1000 + rnd.nextInt(12));
            table.put(id, parent, table.index(s));
            want.put(id, new Creations.Origin(parent, s));
        }
        assertEquals(want.size(), table.size());
        want.forEach((id, origin) -> {
            assertTrue(table.contains(id));
            assertEquals(origin, table.get(id));
        });
        for (int i = 0; i < 10_000; i++) {
            long id = rnd.nextLong();
            if (want.containsKey(id)) continue;
            assertFalse(table.contains(id));
            assertNull(table.get(id));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 12})
    void equalSegmentsShareAnIndex(int distinct) {
        TaskOrigins table = new TaskOrigins();
        for (int i = 0; i < 100; i++) assertEquals(i % distinct, table.index(segment(i % distinct)));
    }
}
