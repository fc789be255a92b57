package org.ompprof.sampler.recording;

/** One slot's rings over the whole run: records written, records and bytes dropped (ring full). */
public record RingStats(
        int slot,
        long sampleRecords,
        long sampleDropped,
        long sampleDroppedBytes,
        long eventRecords,
        long eventDropped,
        long eventDroppedBytes) {}
