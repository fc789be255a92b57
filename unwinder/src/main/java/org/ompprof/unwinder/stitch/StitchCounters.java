package org.ompprof.unwinder.stitch;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What stitching found in one recording, so that nothing is lost silently.
 *
 * @param samples samples per kind
 * @param weightNs time those samples stand for, per kind
 * @param regions parallel regions whose creation context was recorded
 * @param tasks explicit tasks whose creation context was recorded
 * @param contextsResolved creation contexts (regions and tasks) that some sample needed and were resolved
 * @param distinctContexts distinct creation paths kept after interning identical ones
 * @param inexactFrameMatches OMPT frame addresses that matched no unwound frame exactly and were
 *     placed by stack position instead (expected 0 with libomp; non-zero means a runtime or
 *     compiler with another frame-address convention)
 * @param unknownContexts samples whose region or task creation was never recorded
 * @param foldedContexts creations in deep task recursion whose context stands for an ancestor's (see RecursionFold)
 */
public record StitchCounters(
        Map<StitchedSample.Kind, Long> samples,
        Map<StitchedSample.Kind, Long> weightNs,
        long regions,
        long tasks,
        long contextsResolved,
        long distinctContexts,
        long inexactFrameMatches,
        long unknownContexts,
        long foldedContexts) {
    public StitchCounters {
        samples = Map.copyOf(samples);
        weightNs = Map.copyOf(weightNs);
    }

    public long samples(StitchedSample.Kind kind) {
        return samples.getOrDefault(kind, 0L);
    }

    public long weightNs(StitchedSample.Kind kind) {
        return weightNs.getOrDefault(kind, 0L);
    }

    public long totalSamples() {
        return samples.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Named counters, for a profile's STITCH section: samples.KIND, weight_ns.KIND (kinds in lower case), then the
     * totals.
     */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (StitchedSample.Kind k : StitchedSample.Kind.values())
            m.put("samples." + k.name().toLowerCase(Locale.ROOT), samples(k));
        for (StitchedSample.Kind k : StitchedSample.Kind.values())
            m.put("weight_ns." + k.name().toLowerCase(Locale.ROOT), weightNs(k));
        m.put("regions", regions);
        m.put("tasks", tasks);
        m.put("contexts_resolved", contextsResolved);
        m.put("distinct_contexts", distinctContexts);
        m.put("inexact_frame_matches", inexactFrameMatches);
        m.put("unknown_contexts", unknownContexts);
        m.put("folded_contexts", foldedContexts);
        return m;
    }

    /** The inverse of {@link #asMap()}; names it does not know are ignored, missing ones read as 0. */
    public static StitchCounters fromMap(Map<String, Long> m) {
        Map<StitchedSample.Kind, Long> n = new EnumMap<>(StitchedSample.Kind.class),
                w = new EnumMap<>(StitchedSample.Kind.class);
        for (StitchedSample.Kind k : StitchedSample.Kind.values()) {
            n.put(k, m.getOrDefault("samples." + k.name().toLowerCase(Locale.ROOT), 0L));
            w.put(k, m.getOrDefault("weight_ns." + k.name().toLowerCase(Locale.ROOT), 0L));
        }
        return new StitchCounters(
                n,
                w,
                m.getOrDefault("regions", 0L),
                m.getOrDefault("tasks", 0L),
                m.getOrDefault("contexts_resolved", 0L),
                m.getOrDefault("distinct_contexts", 0L),
                m.getOrDefault("inexact_frame_matches", 0L),
                m.getOrDefault("unknown_contexts", 0L),
                m.getOrDefault("folded_contexts", 0L));
    }

    /** Mutable tallies, turned into a {@link StitchCounters} snapshot on request. */
    static final class Tally {
        private final long[] samples = new long[StitchedSample.Kind.values().length];
        private final long[] weight = new long[samples.length];
        long regions;
        long tasks;
        long contextsResolved;
        long distinctContexts;
        long inexactFrameMatches;
        long unknownContexts;
        long foldedContexts;

        void count(StitchedSample s) {
            samples[s.kind().ordinal()]++;
            weight[s.kind().ordinal()] += s.weightNs();
        }

        /** Adds another tally's counts to this one's. */
        void add(Tally o) {
            for (int i = 0; i < samples.length; i++) {
                samples[i] += o.samples[i];
                weight[i] += o.weight[i];
            }
            regions += o.regions;
            tasks += o.tasks;
            contextsResolved += o.contextsResolved;
            distinctContexts += o.distinctContexts;
            inexactFrameMatches += o.inexactFrameMatches;
            unknownContexts += o.unknownContexts;
            foldedContexts += o.foldedContexts;
        }

        StitchCounters snapshot() {
            Map<StitchedSample.Kind, Long> n = new EnumMap<>(StitchedSample.Kind.class),
                    w = new EnumMap<>(StitchedSample.Kind.class);
            for (StitchedSample.Kind k : StitchedSample.Kind.values()) {
                n.put(k, samples[k.ordinal()]);
                w.put(k, weight[k.ordinal()]);
            }
            return new StitchCounters(
                    n,
                    w,
                    regions,
                    tasks,
                    contextsResolved,
                    distinctContexts,
                    inexactFrameMatches,
                    unknownContexts,
                    foldedContexts);
        }
    }
}
