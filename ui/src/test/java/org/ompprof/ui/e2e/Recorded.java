package org.ompprof.ui.e2e;

import java.nio.file.Path;
import java.util.List;

import org.ompprof.sampler.record.ParallelBegin;
import org.ompprof.sampler.record.ParallelEnd;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.Recording;

/** A recording read back whole, for assertions: small programs make small recordings. */
record Recorded(Recording recording, List<WireRecord> records) {
    static Recorded read(Path file) {
        Recording r = Recording.open(file);
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
        long begin = all(ParallelBegin.class).stream().filter(p -> p.parallelId() == parallelId).findFirst().orElseThrow().timeNs();
        long end = all(ParallelEnd.class).stream().filter(p -> p.parallelId() == parallelId).findFirst().orElseThrow().timeNs();
        return new long[] {begin, end};
    }

    /** The first parallel region that ran. */
    ParallelBegin firstRegion() {
        return all(ParallelBegin.class).stream().min((a, b) -> Long.compare(a.timeNs(), b.timeNs())).orElseThrow();
    }
}
