package org.ompprof.sampler.recording;

/**
 * The kinds of section in a recording file, with their numbers on disk. A raw recording has
 * RECORDS and MODULE_IMAGE sections; a profile has FRAMES, METRICS, TREE, TIMELINE and STITCH
 * instead; both have the tables.
 */
public enum SectionKind {
    METADATA(1),
    THREADS(2),
    MODULES(3),
    MODULE_IMAGE(4),
    RECORDS(5),
    STATS(6),
    /** Profile: the frame table (calltree's FrameTableCodec). */
    FRAMES(7),
    /** Profile: the metric registry (calltree's MetricCodec). */
    METRICS(8),
    /** Profile: the calling-context tree and its exclusive values (calltree's TreeCodec). */
    TREE(9),
    /**
     * Profile: a run of one thread's sample timeline, after a thread prefix like RECORDS (calltree's TimelineCodec).
     */
    TIMELINE(10),
    /** Profile: how samples were stitched, as named counters. */
    STITCH(11),
    /** Profile: blame totals per kind (waited, charged, unattributed), as named counters. */
    BLAME(12),
    /** Profile: each thread's time per parallel region (calltree's RegionTableCodec). */
    REGIONS(13),
    /** Profile: the mutexes threads waited for (calltree's MutexTableCodec). */
    MUTEXES(14),
    /** Profile: time per source line within each context (calltree's LineTableCodec). */
    LINES(15),
    /** Profile: the devices' activity on the host clock (calltree's DeviceTableCodec). */
    DEVICES(16),
    /** Profile: the MPI calls of the ranks in it, with their clocks' measures (calltree's MpiCallTableCodec). */
    MPI_CALLS(17),
    END(255);

    private final int code;

    SectionKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The kind with this number, or null. */
    public static SectionKind of(int code) {
        for (SectionKind k : values()) if (k.code == code) return k;
        return null;
    }
}
