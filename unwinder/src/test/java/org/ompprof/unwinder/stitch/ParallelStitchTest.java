package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.recording.ReadAhead;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.SectionKind;
import org.ompprof.unwinder.clock.StageClock;
import org.ompprof.unwinder.image.ModuleImages;

/**
 * Sections stitched in parallel, each on the thread that decodes it with a stitcher of its own,
 * give the samples in time order that one thread gives: the same samples, paths and kinds in the
 * same order, and the same counts. Real recordings of several sections per thread: explicit tasks
 * (fib: creation contexts resolved as samples first need them, by whichever thread gets there
 * first) and nested regions.
 */
class ParallelStitchTest {
    private static final int THREADS = 3;

    @ParameterizedTest
    @ValueSource(strings = {"fib", "recursion", "regions"})
    void parallelSectionsStitchAsOneThreadDoes(String program) throws Exception {
        Path recording = StitchPrograms.recording(program, Map.of());
        Stitch one = stitch(recording, ReadAhead.NONE);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            // a shallow depth: the reader takes sections on itself while the pool has others
            Stitch parallel = stitch(recording, ReadAhead.on(pool, THREADS + 1));
            assertEquals(one.samples().size(), parallel.samples().size(), "samples");
            for (int i = 0; i < one.samples().size(); i++)
                assertEquals(one.samples().get(i), parallel.samples().get(i), "sample " + i + " in time order");
            assertEquals(one.counters(), parallel.counters(), "counts");
            long counted = parallel.counters().samples().values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            assertEquals(parallel.samples().size(), counted, "every sample counted once, whichever thread stitched it");
            assertEquals(1, one.threads(), "one thread stitched alone");
            assertTrue(
                    parallel.threads() > 1,
                    "sections stitched on " + parallel.threads() + " thread(s) of " + parallel.sections()
                            + " sections");
        } finally {
            pool.shutdownNow();
        }
    }

    private record Stitch(List<StitchedSample> samples, StitchCounters counters, int threads, long sections) {}

    private static Stitch stitch(Path recording, ReadAhead ahead) {
        try (Recording r = Recording.open(recording)) {
            Stitcher st = Stitcher.of(r, new ModuleImages(), StageClock.off(), ahead, roots -> {});
            List<StitchedSample> samples = st.samplesInTimeOrder().toList();
            long sections = r.sections().stream()
                    .filter(s -> s.kind() == SectionKind.RECORDS)
                    .count();
            return new Stitch(samples, st.counters(), st.stitchingThreads(), sections);
        }
    }
}
