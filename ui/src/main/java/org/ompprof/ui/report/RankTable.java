package org.ompprof.ui.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.merge.JobRanks;
import org.ompprof.sampler.omp.OmpState;
import org.ompprof.sampler.omp.WaitClass;
import org.ompprof.sampler.recording.Metadata;

/**
 * An MPI job's ranks side by side, in a profile merged from its ranks' profiles: each rank's
 * compute (the work states), time inside MPI and OpenMP waiting and overhead (the other
 * states), summed over its threads; and how unevenly the ranks compute. A rank that computes
 * longer than the others makes them wait for it in MPI.
 */
public record RankTable(JobRanks job, List<Rank> ranks) {
    /** One rank: its place in the job, its threads in the merged profile, its time by kind. */
    public record Rank(int rank, int firstThread, int threads, long computeNs, long mpiNs, long waitingNs) {}

    private static final String MPI = "time.mpi";
    /** Below this, the busiest rank computes within 5% of the mean: nobody waits much for anyone. */
    private static final double EVEN = 1.05;

    private static final Set<String> WORK = Stream.of(OmpState.values())
            .filter(s -> s.waitClass() == WaitClass.WORK)
            .map(OmpState::metricName)
            .collect(Collectors.toUnmodifiableSet());

    /** The ranks of a merged profile, by rank; empty unless it merges two or more ranks' runs. */
    public static RankTable of(CallingContextTree tree, Metadata meta) {
        JobRanks job = JobRanks.of(meta); // null meta: no runs to tell (a viewer without the metadata)
        if (job.isEmpty()) return new RankTable(job, List.of());
        List<Metric> states = Report.stateMetrics(tree);
        List<Rank> ranks = new ArrayList<>();
        for (JobRanks.Rank r : job.ranks()) ranks.add(rank(tree, states, r));
        return new RankTable(job, List.copyOf(ranks));
    }

    /** A rank's time over its threads of the merged tree. */
    private static Rank rank(CallingContextTree tree, List<Metric> states, JobRanks.Rank of) {
        long compute = 0, mpi = 0, waiting = 0;
        int threads = 0;
        for (int t : tree.threads()) {
            if (!of.holds(t)) continue;
            threads++;
            for (Metric m : states) {
                long v = tree.total(m.index(), t);
                if (WORK.contains(m.name())) compute += v;
                else if (m.name().startsWith(MPI)) mpi += v;
                else waiting += v;
            }
        }
        return new Rank(of.rank(), of.firstThread(), threads, compute, mpi, waiting);
    }

    public boolean isEmpty() {
        return ranks.isEmpty();
    }

    /** The busiest rank's compute over the ranks' mean: 1 when they compute alike. */
    public double imbalance() {
        double mean = ranks.stream().mapToLong(Rank::computeNs).average().orElse(0);
        long most = ranks.stream().mapToLong(Rank::computeNs).max().orElse(0);
        return mean == 0 ? 1 : most / mean;
    }

    /** Thread {@code t} of the merged profile as rank.thread (its number in its rank's own profile). */
    public String label(int t) {
        return job.label(t);
    }

    /** The table as report prints it. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT, "%6s %8s %12s %12s %15s", "rank", "threads", "compute", "MPI", "OpenMP waiting"));
        for (Rank r : ranks) {
            out.add(String.format(
                    Locale.ROOT,
                    "%6d %8d %12s %12s %15s",
                    r.rank(),
                    r.threads(),
                    Report.time(r.computeNs()),
                    Report.time(r.mpiNs()),
                    Report.time(r.waitingNs())));
        }
        Rank busiest =
                ranks.stream().max(Comparator.comparingLong(Rank::computeNs)).orElseThrow();
        out.add(
                imbalance() < EVEN
                        ? String.format(
                                Locale.ROOT, "imbalance across ranks %.2f: the ranks compute alike", imbalance())
                        : String.format(
                                Locale.ROOT,
                                "imbalance across ranks %.2f: rank %d computes the most (%s); the others wait for it"
                                        + " in MPI",
                                imbalance(),
                                busiest.rank(),
                                Report.time(busiest.computeNs())));
        return out;
    }
}
