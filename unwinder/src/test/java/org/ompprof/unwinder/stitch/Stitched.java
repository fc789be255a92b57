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

    /**
     * The samples the stitcher gave {@code kind}, each with what the agent recorded of it, for a
     * failure's message: a sample that comes out unresolved once in dozens of runs cannot be
     * looked at again.
     */
    String described(StitchedSample.Kind kind) {
        return counters + "\n"
                + samples.stream()
                        .filter(p -> p.stitched().sample().kind() == kind)
                        .map(Stitched::described)
                        .collect(java.util.stream.Collectors.joining("\n"));
    }

    private static String described(Pair p) {
        SampleRecord s = p.raw();
        return p + " walk " + s.walk() + " rip 0x"
                + Long.toHexString(s.context().rip()) + " stack "
                + s.context().stackLength() + " state 0x" + Integer.toHexString(s.state()) + " flags 0x"
                + Integer.toHexString(s.flags()) + " thread " + s.ompThreadNum() + " tasks " + s.taskLevels()
                + " regions " + s.parallelLevels();
    }

    <T extends WireRecord> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
