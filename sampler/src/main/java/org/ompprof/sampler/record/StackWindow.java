package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;

/**
 * A stretch of a thread's stack copied apart from a sample's snapshot ({@code Wire.SAMPLE_UPPER}): the {@code
 * bytes.byteSize()} bytes from address {@code address}, read-only and little-endian.
 */
public record StackWindow(long address, MemorySegment bytes) {
    public static final StackWindow NONE = new StackWindow(0, MemorySegment.ofArray(new byte[0]));

    public StackWindow {
        bytes = bytes.isReadOnly() ? bytes : bytes.asReadOnly();
    }

    public boolean isEmpty() {
        return bytes.byteSize() == 0;
    }

    public int length() {
        return (int) bytes.byteSize();
    }
}
