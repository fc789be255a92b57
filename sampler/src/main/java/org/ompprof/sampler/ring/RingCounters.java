package org.ompprof.sampler.ring;

/** A ring producer's counters: records written, and records/bytes dropped because it was full. */
public record RingCounters(long records, long dropped, long droppedBytes) {
    public static final RingCounters ZERO = new RingCounters(0, 0, 0);

    /**
     * What grew since {@code earlier}. A counter that went down was reset by a new owner of the
     * slot, so all of its current value is new.
     */
    public RingCounters since(RingCounters earlier) {
        return new RingCounters(
                delta(records, earlier.records),
                delta(dropped, earlier.dropped),
                delta(droppedBytes, earlier.droppedBytes));
    }

    public RingCounters plus(RingCounters o) {
        return new RingCounters(records + o.records, dropped + o.dropped, droppedBytes + o.droppedBytes);
    }

    private static long delta(long now, long before) {
        return now >= before ? now - before : now;
    }
}
