package org.ompprof.unwinder.stitch;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.recording.Recording;

/**
 * A recording stitched once: every sample next to its raw record (to select samples by what
 * the agent recorded, independently of what the stitcher made of them), the callback records,
 * and the counters.
 */
record Stitched(List<Pair> samples, List<WireRecord> events, StitchCounters counters) {
    record Pair(SampleRecord raw, Named stitched) {
        @Override
        public String toString() {
            return stitched.toString();
        }
    }

    static Stitched of(Path recording) {
        try (Recording r = Recording.open(recording)) {
            Stitcher st = Stitcher.of(r);
            ModuleRoles roles = ModuleRoles.of(r);
            List<SampleRecord> raw = r.records()
                    .filter(x -> x instanceof SampleRecord)
                    .map(x -> (SampleRecord) x)
                    .toList();
            List<StitchedSample> done = st.samples().toList();
            if (raw.size() != done.size())
                throw new AssertionError(raw.size() + " samples, " + done.size() + " stitched");
            List<Pair> pairs = new java.util.ArrayList<>();
            for (int i = 0; i < raw.size(); i++) pairs.add(new Pair(raw.get(i), Named.of(st, roles, done.get(i))));
            // Only small records are kept: stack snapshots of callbacks are not needed past this point.
            List<WireRecord> events =
                    r.records().filter(x -> !(x instanceof SampleRecord)).toList();
            return new Stitched(List.copyOf(pairs), events, st.counters());
        }
    }

    List<Pair> select(Predicate<SampleRecord> which) {
        return samples.stream().filter(p -> which.test(p.raw())).toList();
    }

    <T extends WireRecord> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
