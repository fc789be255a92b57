package org.ompprof.ui.e2e;

import java.nio.file.Path;
import java.util.List;
import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.ParallelEnd;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.Recording;

/**
 * The raw recording kept next to a profile by {@code record --keep-raw}, read back whole, for
 * assertions on what the agent wrote: small programs make small recordings.
 */
record Recorded(Recording recording, List<WireRecord> records) {
    /** @param profile the file {@code record -o} named; its raw recording is {@code profile.raw} */
    static Recorded read(Path profile) {
        try (Recording p = Recording.open(profile)) {
            if (!p.isProfile()) throw new AssertionError(profile + " is not a profile");
        }
        Recording r = Recording.open(profile.resolveSibling(profile.getFileName() + ".raw"));
        return new Recorded(r, r.records().toList());
    }

    <T extends WireRecord> List<T> all(Class<T> type) {
        return records.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<SampleRecord> samples() {
        return all(SampleRecord.class);
    }

    /** The parallel region's [begin, end] in CLOCK_MONOTONIC ns, by its tool-assigned id. */
    long[] regionSpan(long parallelId) {
        long begin = all(ParallelBegin.class).stream()
                .filter(p -> p.parallelId() == parallelId)
                .findFirst()
                .orElseThrow()
                .timeNs();
        long end = all(ParallelEnd.class).stream()
                .filter(p -> p.parallelId() == parallelId)
                .findFirst()
                .orElseThrow()
                .timeNs();
        return new long[] {begin, end};
    }

    /** The first parallel region that ran. */
    ParallelBegin firstRegion() {
        return all(ParallelBegin.class).stream()
                .min((a, b) -> Long.compare(a.timeNs(), b.timeNs()))
                .orElseThrow();
    }
}
