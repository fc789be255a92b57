package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>On a pool, which threads stitch is the scheduler's choice: on a loaded machine the reader can
 * take every section before a pool thread starts one (CI saw 1 thread of 4 sections). So the
 * sections are also handed each to a thread of its own, which stitches it before the next is
 * handed out: more than one thread stitches whatever the load.
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
            sameAs(one, stitch(recording, ReadAhead.on(pool, THREADS + 1)));
        } finally {
            pool.shutdownNow();
        }
        Stitch handed = stitch(recording, ReadAhead.on(new ThreadPerSection(), THREADS + 1));
        sameAs(one, handed);
        assertEquals(1, one.threads(), "one thread stitched alone");
        assertTrue(
                handed.threads() > 1,
                "sections stitched on " + handed.threads() + " thread(s) of " + handed.sections() + " sections");
    }

    private static void sameAs(Stitch one, Stitch parallel) {
        assertEquals(one.samples().size(), parallel.samples().size(), "samples");
        for (int i = 0; i < one.samples().size(); i++)
            assertEquals(one.samples().get(i), parallel.samples().get(i), "sample " + i + " in time order");
        assertEquals(one.counters(), parallel.counters(), "counts");
        long counted = parallel.counters().samples().values().stream()
                .mapToLong(Long::longValue)
                .sum();
        assertEquals(parallel.samples().size(), counted, "every sample counted once, whichever thread stitched it");
    }

    /** Runs each job on a new thread and returns once it is done: the reader never finds one not started. */
    private static final class ThreadPerSection extends AbstractExecutorService {
        @Override
        public void execute(Runnable job) {
            Thread t = Thread.ofPlatform().start(job);
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void shutdown() {}

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    private record Stitch(List<StitchedSample> samples, StitchCounters counters, int threads, long sections) {}

    private static Stitch stitch(Path recording, ReadAhead ahead) {
        try (Recording r = Recording.open(recording)) {
            Stitcher st = Stitcher.of(r, new ModuleImages(), StageClock.off(), ahead, roots -> {});
            List<StitchedSample> samples = all(st.samplesInTimeOrder());
            long sections = r.sections().stream()
                    .filter(s -> s.kind() == SectionKind.RECORDS)
                    .count();
            return new Stitch(samples, st.counters(), st.stitchingThreads(), sections);
        }
    }

    private static List<StitchedSample> all(Iterator<StitchedSample> samples) {
        List<StitchedSample> out = new ArrayList<>();
        samples.forEachRemaining(out::add);
        return out;
    }
}
