package org.ompprof.calltree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.recording.Metadata;

/**
 * A job's ranks as a merge's metadata tells them: seeded random jobs (ranks merged in any order,
 * with gaps, runs without threads, hosts or none) through {@link RunMetadata} as {@code ompprof
 * merge} keeps them, read back to each merged thread's rank and rank.thread label.
 */
class JobRanksTest {
    /** One rank's run: its rank, host (null for none) and thread count. */
    private record Run(int rank, String host, int threads) {}

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 42, 2026})
    void everyMergedThreadIsItsRanksThreadWhateverTheMergeOrder(long seed) {
        Random random = new Random(seed);
        List<Run> runs = randomJob(random);
        Metadata meta = merged(runs, random);
        JobRanks job = JobRanks.of(meta);

        List<Integer> expectedRanks = runs.stream().map(Run::rank).sorted().toList();
        assertEquals(
                expectedRanks, job.ranks().stream().map(JobRanks.Rank::rank).toList(), "by rank, gaps kept");
        int thread = 0;
        for (Run run : runs) {
            JobRanks.Rank r = job.ranks().stream()
                    .filter(x -> x.rank() == run.rank())
                    .findFirst()
                    .orElseThrow();
            assertEquals(run.host() == null ? "" : run.host(), r.host());
            assertEquals(thread, r.firstThread(), "rank " + run.rank() + " in " + runs);
            for (int t = 0; t < run.threads(); t++, thread++) {
                assertEquals(r, job.owner(thread), "thread " + thread + " of " + runs);
                assertEquals(run.rank() + "." + t, job.label(thread));
            }
        }
        assertEquals(runs.getLast().rank(), job.owner(thread + 5).rank(), "the last run's span is open");
    }

    /** 2 to 9 ranks out of 0..11, in a shuffled merge order, some with no threads. */
    private static List<Run> randomJob(Random random) {
        List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < 12; r++) ranks.add(r);
        Collections.shuffle(ranks, random);
        List<Run> runs = new ArrayList<>();
        for (int i = 0, n = 2 + random.nextInt(8); i < n; i++) {
            String host = random.nextInt(4) == 0 ? null : "node" + random.nextInt(3);
            runs.add(new Run(ranks.get(i), host, random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(6)));
        }
        return runs;
    }

    /** The runs merged as ProfileMerger keeps their metadata: one at a time, or in two merged halves. */
    private static Metadata merged(List<Run> runs, Random random) {
        if (random.nextBoolean() || runs.size() < 4)
            return new Metadata(metadata(runs).result());
        int half = runs.size() / 2;
        RunMetadata all = new RunMetadata();
        RunMetadata first = metadata(runs.subList(0, half));
        all.add(first.result(), "first.ompprof", 0);
        all.add(metadata(runs.subList(half, runs.size())).result(), "second.ompprof", span(runs.subList(0, half)));
        return new Metadata(all.result());
    }

    private static RunMetadata metadata(List<Run> runs) {
        RunMetadata m = new RunMetadata();
        int offset = 0;
        for (Run run : runs) {
            m.add(rankMetadata(run.rank(), run.host()), "run.rank-" + run.rank() + ".ompprof", offset);
            offset += run.threads();
        }
        return m;
    }

    private static int span(List<Run> runs) {
        return runs.stream().mapToInt(Run::threads).sum();
    }

    private static Map<String, String> rankMetadata(int rank, String host) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Metadata.COMMAND, "./hybrid");
        m.put(Metadata.MPI_RANK, Integer.toString(rank));
        if (host != null) m.put(Metadata.HOST, host);
        return m;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void aRunWithoutARankOrTheSameRankTwiceIsNoJob(long seed) {
        Random random = new Random(seed);
        List<Run> runs = randomJob(random);
        RunMetadata m = new RunMetadata();
        int offset = 0, odd = random.nextInt(runs.size());
        boolean twice = random.nextBoolean();
        for (int i = 0; i < runs.size(); i++) {
            Map<String, String> meta = rankMetadata(runs.get(i).rank(), "node");
            if (i == odd && twice)
                meta.put(
                        Metadata.MPI_RANK,
                        Integer.toString(runs.get((i + 1) % runs.size()).rank()));
            else if (i == odd) meta.remove(Metadata.MPI_RANK);
            m.add(meta, "run" + i + ".ompprof", offset);
            offset += runs.get(i).threads();
        }
        JobRanks job = JobRanks.of(new Metadata(m.result()));
        assertTrue(job.isEmpty(), (twice ? "rank twice: " : "no rank: ") + m.result());
        assertNull(job.owner(0));
        assertEquals("3", job.label(3), "threads keep their plain numbers");
    }

    @Test
    void oneRanksProfileOrNoMergeIsNoJob() {
        assertTrue(JobRanks.of(null).isEmpty());
        assertTrue(JobRanks.of(new Metadata(rankMetadata(0, "node"))).isEmpty(), "a rank's own profile");
        RunMetadata one = new RunMetadata();
        one.add(rankMetadata(3, "node"), "run.rank-3.ompprof", 0);
        assertTrue(JobRanks.of(new Metadata(one.result())).isEmpty(), "a merge of one rank's profile");
        Map<String, String> bad = new LinkedHashMap<>(merged2());
        bad.put("input.1.thread_offset", "many");
        assertTrue(JobRanks.of(new Metadata(bad)).isEmpty(), "an offset that is no number");
    }

    @Test
    void twoRanksMergedInReverseComeOutInRankOrder() {
        JobRanks job = JobRanks.of(new Metadata(merged2()));
        assertEquals(
                List.of(new JobRanks.Rank(0, "b", 2, Integer.MAX_VALUE), new JobRanks.Rank(1, "a", 0, 2)), job.ranks());
        assertEquals(
                List.of("1.0", "1.1", "0.0", "0.1"), List.of(job.label(0), job.label(1), job.label(2), job.label(3)));
    }

    /** run.rank-1 (2 threads, on host a) merged before run.rank-0 (on host b). */
    private static Map<String, String> merged2() {
        RunMetadata m = new RunMetadata();
        m.add(rankMetadata(1, "a"), "run.rank-1.ompprof", 0);
        m.add(rankMetadata(0, "b"), "run.rank-0.ompprof", 2);
        return m.result();
    }
}
