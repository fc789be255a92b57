package org.ompprof.calltree.profile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.Stats;

/**
 * Timelines written as they grow: compressed where they are written, or on other threads while the samples after them
 * come in, the file is the same byte for byte, and reads back as the samples that went in (seeded random threads,
 * samples and budgets, from one sample a flush to all at the end).
 */
class TimelineStreamTest {
    private static final int TREE_SIZE = 50;

    /** One sample of one thread. */
    private record Sample(int thread, long timeNs, int node, int state, long weightNs) {}

    static Stream<Arguments> runs() {
        return Stream.of(1L, 2L, 3L, 4L, 5L, 6L).map(seed -> {
            Random r = new Random(seed);
            int budget = switch ((int) (seed % 3)) {
                case 0 -> 1;
                case 1 -> 1 + r.nextInt(200);
                default -> Integer.MAX_VALUE;
            };
            return Arguments.of(seed, budget);
        });
    }

    @ParameterizedTest(name = "seed {0}, budget {1}")
    @MethodSource("runs")
    void encodedOnOtherThreadsTheFileIsTheSameAndReadsBackWhole(long seed, int budget, @TempDir Path dir)
            throws IOException {
        List<Sample> samples = samples(new Random(seed));
        Path here = write(dir.resolve("here.ompprof"), samples, budget, null);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        Path ahead;
        try {
            ahead = write(dir.resolve("ahead.ompprof"), samples, budget, pool);
        } finally {
            pool.shutdownNow();
        }
        // encoders that never begin a run: each is compressed where it is appended
        Path idle = write(dir.resolve("idle.ompprof"), samples, budget, task -> {});
        // one flush, at the end: each thread's timeline, as a profile writes it whole
        if (budget == Integer.MAX_VALUE) {
            Path whole = whole(dir.resolve("whole.ompprof"), samples);
            assertArrayEquals(Files.readAllBytes(whole), Files.readAllBytes(here));
        }
        assertArrayEquals(Files.readAllBytes(here), Files.readAllBytes(ahead));
        assertArrayEquals(Files.readAllBytes(here), Files.readAllBytes(idle));
        try (Recording r = Recording.open(ahead)) {
            List<Sample> back = new ArrayList<>();
            for (Timeline t : ProfileReader.timelines(r, TREE_SIZE))
                for (int i = 0; i < t.size(); i++)
                    back.add(new Sample(t.thread(), t.timeNs(i), t.node(i), t.state(i), t.weightNs(i)));
            assertEquals(byThread(samples), back);
        }
    }

    private static List<Sample> samples(Random r) {
        int threads = 1 + r.nextInt(6);
        long[] time = new long[threads];
        List<Sample> samples = new ArrayList<>();
        for (int i = r.nextInt(3000); i > 0; i--) {
            int thread = r.nextInt(threads);
            time[thread] += 1 + r.nextInt(2_000_000);
            samples.add(new Sample(thread, time[thread], r.nextInt(TREE_SIZE), r.nextInt(8), 1 + r.nextInt(3_000_000)));
        }
        return samples;
    }

    private static List<Sample> byThread(List<Sample> samples) {
        return samples.stream()
                .sorted((a, b) -> Integer.compare(a.thread(), b.thread()))
                .toList(); // a stable sort: each thread's in time order
    }

    private static Path whole(Path file, List<Sample> samples) throws IOException {
        try (RecordingWriter w = RecordingWriter.create(file)) {
            Map<Integer, Timeline.Builder> timelines = new java.util.TreeMap<>();
            for (Sample s : samples)
                timelines
                        .computeIfAbsent(s.thread(), Timeline.Builder::new)
                        .add(s.timeNs(), s.node(), s.state(), s.weightNs());
            for (Timeline.Builder t : timelines.values()) ProfileWriter.timeline(w, t.build());
            tables(w);
        }
        return file;
    }

    private static void tables(RecordingWriter w) throws IOException {
        w.metadata(new Metadata(Map.of(Metadata.MODE, "cpu")));
        w.threads(List.of());
        w.modules(List.of());
        w.stats(new Stats(HandlerHistogram.empty(), 0, 0, 0, 1, 0, 0, List.of(), List.of(), List.of()));
        w.commit();
    }

    private static Path write(Path file, List<Sample> samples, int budget, Executor encoders) throws IOException {
        try (RecordingWriter w = RecordingWriter.create(file)) {
            TimelineStream stream = TimelineStream.to(w, budget).encodedOn(encoders);
            for (Sample s : samples) stream.add(s.thread(), s.timeNs(), s.node(), s.state(), s.weightNs());
            assertEquals(List.of(), stream.finish());
            assertEquals(samples.size(), stream.written());
            tables(w);
        }
        return file;
    }
}
