package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.ompprof.sampler.wire.Wire;

/** A walk is immutable whoever made it: the public constructor copies, the accessors hand out copies. */
class WalkTest {
    @Test
    void theConstructorCopiesAndTheAccessorsHandOutCopies() {
        long[] pcs = {0x401000, 0x402000}, sps = {0x7ff0, 0x7ff8};
        Walk w = new Walk(pcs, sps, Wire.WALK_COMPLETE);
        pcs[0] = 1;
        sps[1] = 2;
        w.pcs()[1] = 3;
        w.sps()[0] = 4;
        assertArrayEquals(new long[] {0x401000, 0x402000}, w.pcs());
        assertArrayEquals(new long[] {0x7ff0, 0x7ff8}, w.sps());
        assertEquals(0x402000, w.pc(1));
        assertEquals(0x7ff0, w.sp(0));
        assertEquals(2, w.count());
        assertEquals(Wire.WALK_COMPLETE, w.stopKind());
    }

    @Test
    void walksOfTheSameFramesAreEqual() {
        Walk a = new Walk(new long[] {5, 6}, new long[] {7, 8}, Wire.WALK_TASK_EXIT | Wire.WALK_CHECK);
        Walk b = Walk.owning(new long[] {5, 6}, new long[] {7, 8}, Wire.WALK_TASK_EXIT | Wire.WALK_CHECK);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(Wire.WALK_TASK_EXIT, b.stopKind());
        assertNotEquals(a, new Walk(new long[] {5, 6}, new long[] {7, 8}, Wire.WALK_TASK_EXIT));
    }

    @Test
    void pcsAndSpsComeInPairs() {
        assertThrows(IllegalArgumentException.class, () -> new Walk(new long[2], new long[1], Wire.WALK_CONTINUE));
        assertThrows(IllegalArgumentException.class, () -> Walk.owning(new long[0], new long[1], Wire.WALK_CONTINUE));
    }
}
