package org.ompprof.unwinder.stitch;

import java.util.EnumMap;
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
 */
public record StitchCounters(Map<StitchedSample.Kind, Long> samples, Map<StitchedSample.Kind, Long> weightNs, long regions,
        long tasks, long contextsResolved, long distinctContexts, long inexactFrameMatches, long unknownContexts) {
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

        void count(StitchedSample s) {
            samples[s.kind().ordinal()]++;
            weight[s.kind().ordinal()] += s.weightNs();
        }

        StitchCounters snapshot() {
            Map<StitchedSample.Kind, Long> n = new EnumMap<>(StitchedSample.Kind.class), w = new EnumMap<>(StitchedSample.Kind.class);
            for (StitchedSample.Kind k : StitchedSample.Kind.values()) {
                n.put(k, samples[k.ordinal()]);
                w.put(k, weight[k.ordinal()]);
            }
            return new StitchCounters(n, w, regions, tasks, contextsResolved, distinctContexts, inexactFrameMatches, unknownContexts);
        }
    }
}
