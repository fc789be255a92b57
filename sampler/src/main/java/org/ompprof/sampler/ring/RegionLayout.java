package org.ompprof.sampler.ring;

import org.ompprof.sampler.wire.Wire;

/**
 * The shape of a shared-memory region and the sampling settings the agent reads from its header.
 *
 * @param sampleRingSize bytes, a power of two
 * @param eventRingSize bytes, a power of two
 * @param mode {@code Wire.MODE_*}
 * @param flags {@code Wire.REGION_*} bits
 */
public record RegionLayout(
        int slots, long sampleRingSize, long eventRingSize, int mode, int rateHz, int stackBytes, int flags) {
    /** Rings smaller than this could not hold one sample with its fixed part. */
    public static final long MIN_RING = 512;

    public RegionLayout {
        if (slots < 1) throw new IllegalArgumentException("slots must be at least 1: " + slots);
        requireRing(sampleRingSize, "sample");
        requireRing(eventRingSize, "event");
    }

    /** A layout with no flags: sampling runs from the start. */
    public RegionLayout(int slots, long sampleRingSize, long eventRingSize, int mode, int rateHz, int stackBytes) {
        this(slots, sampleRingSize, eventRingSize, mode, rateHz, stackBytes, 0);
    }

    private static void requireRing(long size, String which) {
        if (size < MIN_RING || Long.bitCount(size) != 1) {
            throw new IllegalArgumentException(
                    which + " ring size must be a power of two >= " + MIN_RING + ": " + size);
        }
    }

    public long slotSize() {
        return Wire.slotSize(sampleRingSize, eventRingSize);
    }

    public long totalSize() {
        return Wire.regionSize(slots, sampleRingSize, eventRingSize);
    }

    public long slotOffset(int slot) {
        return Wire.REGION_HEADER_SIZE + slot * slotSize();
    }

    public long sampleDataOffset(int slot) {
        return slotOffset(slot) + Wire.SLOT_HEADER_SIZE;
    }

    public long eventDataOffset(int slot) {
        return sampleDataOffset(slot) + sampleRingSize;
    }
}
