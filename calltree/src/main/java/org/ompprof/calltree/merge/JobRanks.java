package org.ompprof.calltree.merge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ompprof.sampler.recording.Metadata;

/**
 * The MPI ranks of a job profile (one merged from its ranks' profiles), read from the runs'
 * metadata that {@link RunMetadata} keeps: each rank's place in the job, its host, and the
 * merged thread numbers its threads took. Empty unless two or more runs were merged and every
 * one names its rank, each a different one: a merge of unrelated runs, or of the same rank
 * twice, is not one job's ranks side by side. The one reader of that metadata, for the report's
 * per-rank table and the viewer's timeline alike.
 *
 * @param ranks by rank (ranks missing from the merge leave gaps)
 */
public record JobRanks(List<Rank> ranks) {
    public static final JobRanks NONE = new JobRanks(List.of());

    /**
     * One rank: its threads are the merged profile's {@code firstThread} (its own thread 0) up to
     * {@code endThread}, exclusive ({@link Integer#MAX_VALUE} for the run merged last).
     *
     * @param host the host it ran on, empty if its profile does not say
     */
    public record Rank(int rank, String host, int firstThread, int endThread) {
        public boolean holds(int thread) {
            return thread >= firstThread && thread < endThread;
        }

        /** Merged thread {@code thread} (one this rank holds) as rank.thread, its number in the rank's own profile. */
        public String label(int thread) {
            return rank + "." + (thread - firstThread);
        }
    }

    public JobRanks {
        ranks = List.copyOf(ranks);
    }

    /** The ranks {@code meta} (a profile's metadata, or null) tells of, or {@link #NONE}. */
    public static JobRanks of(Metadata meta) {
        if (meta == null) return NONE;
        long runs = meta.getLong(RunMetadata.INPUTS, 0);
        if (runs < 2 || runs > Integer.MAX_VALUE) return NONE;
        List<long[]> placed = new ArrayList<>(); // rank, first thread, index
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < runs; i++) {
            String prefix = RunMetadata.PREFIX + i + ".";
            long rank = meta.getLong(prefix + Metadata.MPI_RANK, -1);
            long offset = meta.getLong(prefix + RunMetadata.THREAD_OFFSET, -1);
            if (rank < 0 || rank > Integer.MAX_VALUE || offset < 0 || offset > Integer.MAX_VALUE) return NONE;
            if (!seen.add(rank)) return NONE;
            placed.add(new long[] {rank, offset, i});
        }
        // by thread offset, merge order among equal ones: a run without threads ends where the next begins
        placed.sort(Comparator.<long[]>comparingLong(p -> p[1]).thenComparingLong(p -> p[2]));
        List<Rank> out = new ArrayList<>();
        for (int i = 0; i < placed.size(); i++) {
            long[] p = placed.get(i);
            int end = i + 1 < placed.size() ? (int) placed.get(i + 1)[1] : Integer.MAX_VALUE;
            String host = meta.get(RunMetadata.PREFIX + p[2] + "." + Metadata.HOST, "");
            out.add(new Rank((int) p[0], host, (int) p[1], end));
        }
        out.sort(Comparator.comparingInt(Rank::rank));
        return new JobRanks(out);
    }

    public boolean isEmpty() {
        return ranks.isEmpty();
    }

    /** The rank whose threads hold merged thread {@code thread}, or null. */
    public Rank owner(int thread) {
        for (Rank r : ranks) if (r.holds(thread)) return r;
        return null;
    }

    /** Merged thread {@code thread} as rank.thread, or as its number where no rank holds it. */
    public String label(int thread) {
        Rank owner = owner(thread);
        return owner == null ? Integer.toString(thread) : owner.label(thread);
    }
}
