package org.ompprof.sampler.ring;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Acquire/release access to the shared region, matching the agent's C11 atomics. The region is
 * page-aligned and every shared field is naturally aligned, so the aligned layouts apply.
 */
final class Atomics {
    /** Coordinates (MemorySegment, long offset). */
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private Atomics() {}

    static long getAcquireLong(MemorySegment s, long off) {
        return (long) LONG.getAcquire(s, off);
    }

    static void setReleaseLong(MemorySegment s, long off, long v) {
        LONG.setRelease(s, off, v);
    }

    static int getAcquireInt(MemorySegment s, long off) {
        return (int) INT.getAcquire(s, off);
    }

    static void setReleaseInt(MemorySegment s, long off, int v) {
        INT.setRelease(s, off, v);
    }

    static boolean casInt(MemorySegment s, long off, int expected, int value) {
        return INT.compareAndSet(s, off, expected, value);
    }

    /** A counter another thread updates: no ordering needed, only an untorn read. */
    static long getOpaqueLong(MemorySegment s, long off) {
        return (long) LONG.getOpaque(s, off);
    }

    static int getOpaqueInt(MemorySegment s, long off) {
        return (int) INT.getOpaque(s, off);
    }
}
