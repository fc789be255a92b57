package org.ompprof.sampler.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.TestRecords;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * Records kept by one read of a recording's sections for a later one: the later read gets the
 * records (and the counts by type of the types it asks for) it would get by inflating the
 * sections again, whatever the budget let be kept, on one thread or several; a read of types that
 * are not all kept ones inflates the sections as before.
 */
class KeptRecordsTest {
    private static final IntPredicate SAMPLES = t -> t == Wire.REC_SAMPLE;
    private static final IntPredicate CALLBACKS = t -> t != Wire.REC_SAMPLE;

    @TempDir
    Path dir;

    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /**
     * Random records on several threads with samples among them (and a thread of samples alone), in many
     * sections, deflated or stored: up to {@code samples} samples a thread of up to {@code stack} bytes of stack.
     */
    private Recording recording(Random rnd, String name, int samples, int stack) throws IOException {
        Map<Integer, List<WireRecord>> records = RecordingTest.randomRecords(rnd, 200 + rnd.nextInt(400));
        records.put(4, new ArrayList<>());
        for (var e : records.entrySet()) {
            List<WireRecord> mixed = new ArrayList<>(e.getValue());
            int n = rnd.nextInt(samples);
            for (int i = 0; i < n; i++) {
                mixed.add(rnd.nextInt(mixed.size() + 1), TestRecords.sample(e.getKey(), i, 8 + rnd.nextInt(stack)));
            }
            e.setValue(mixed);
        }
        Path file = new RecordingTest().write(dir.resolve(name), new byte[16], records, rnd.nextBoolean());
        return Recording.open(file);
    }

    @Test
    void theLaterReadGetsWhatInflatingAgainGives() throws IOException {
        Random rnd = new Random(14);
        for (int round = 0; round < 24; round++) {
            long budget = switch (round % 4) {
                case 0 -> 0; // nothing kept
                case 1 -> 1 + rnd.nextInt(200_000); // some sections kept, the rest inflated again
                default -> Long.MAX_VALUE;
            };
            boolean sampleHeavy = round % 3 == 0;
            Recording recording = sampleHeavy
                    ? recording(rnd, "r" + round + ".ompprof", 400, 8000)
                    : recording(rnd, "r" + round + ".ompprof", 40, 32);
            try (Recording r = recording) {
                int depth = 1 + rnd.nextInt(4);
                ReadAhead ahead =
                        rnd.nextBoolean() ? ReadAhead.NONE : ReadAhead.on(pool, depth, depth + rnd.nextInt(8));
                KeptRecords kept = KeptRecords.of(SAMPLES, budget);
                List<WireRecord> callbacks = flat(r.recordBatches(Recording.ALL_THREADS, CALLBACKS, ahead, kept), null);
                assertSame(r.records(CALLBACKS).toList(), callbacks, "the keeping read itself, round " + round);
                long samples = r.records(SAMPLES).count();
                // where samples are most of a section's bytes, inflating it again costs less than keeping them
                if (budget == Long.MAX_VALUE && !sampleHeavy) assertEquals(samples > 0, kept.held() > 0, "kept");
                if (budget == 0) assertEquals(0, kept.held(), "none kept");
                for (int thread : r.recordThreads()) {
                    long[] counted = {0};
                    List<WireRecord> read = flat(
                            r.keptBatches(Integer.toUnsignedLong(thread), kept, ahead, Function.identity()), counted);
                    List<WireRecord> expected = r.records(thread, SAMPLES).toList();
                    assertSame(expected, read, "thread " + thread + ", round " + round);
                    assertEquals(expected.size(), counted[0], "samples counted");
                }
                for (int i = 0; i < r.sections().size(); i++) assertNull(kept.take(i), "let go as taken");
                assertEquals(0, kept.held());
            }
        }
    }

    /** Records that are most of their section's bytes are not kept: inflating again costs less than keeping them. */
    @Test
    void onlyASmallPartOfASectionIsKept() {
        Random rnd = new Random(21);
        int[] seen = new int[2]; // rounds not kept, kept
        for (int round = 0; round < 40; round++) {
            List<byte[]> records = new ArrayList<>();
            ByteArrayOutputStream samples = new ByteArrayOutputStream();
            int n = 1 + rnd.nextInt(50);
            for (int i = 0; i < n; i++) {
                boolean sample = rnd.nextInt(6) == 0;
                byte[] r = RecordEncoder.encode(
                        sample
                                ? TestRecords.sample(1, i, rnd.nextInt(round % 2 == 0 ? 8 : 4000))
                                : TestRecords.random(rnd));
                if (r.length > 16 && Le.u16(MemorySegment.ofArray(r), 4) == Wire.REC_SAMPLE) samples.writeBytes(r);
                records.add(r);
            }
            ByteArrayOutputStream payload = new ByteArrayOutputStream();
            payload.writeBytes(new byte[8]); // the section's key
            records.forEach(payload::writeBytes);
            KeptRecords kept = KeptRecords.of(SAMPLES, Long.MAX_VALUE);
            kept.offer(round, payload.toByteArray(), 8);
            byte[] got = kept.take(round);
            boolean worth = samples.size() > 0 && samples.size() * 4L <= payload.size() - 8;
            seen[worth ? 1 : 0]++;
            if (worth) assertArrayEquals(samples.toByteArray(), got, "round " + round);
            else assertNull(got, "round " + round + ": " + samples.size() + " of " + (payload.size() - 8) + " bytes");
        }
        assertTrue(seen[0] > 0 && seen[1] > 0, "both kept and not: " + seen[0] + ", " + seen[1]);
    }

    @Test
    void otherReadsNeitherTakeNorKeep() throws IOException {
        try (Recording r = recording(new Random(3), "mixed.ompprof", 40, 32)) {
            KeptRecords kept = KeptRecords.of(SAMPLES, Long.MAX_VALUE);
            flat(r.recordBatches(Recording.ALL_THREADS, t -> t == Wire.REC_MUTEX, ReadAhead.NONE, kept), null);
            long held = kept.held();
            assertTrue(held > 0);
            IntPredicate samplesAndMutexes = t -> t == Wire.REC_SAMPLE || t == Wire.REC_MUTEX;
            assertSame(
                    r.records(samplesAndMutexes).toList(),
                    flat(r.recordBatches(Recording.ALL_THREADS, samplesAndMutexes, ReadAhead.NONE), null),
                    "samples and mutex events");
            assertEquals(held, kept.held(), "nothing taken or kept by a read without them");
            assertSame(
                    r.records(SAMPLES).toList(),
                    flat(r.keptBatches(Recording.ALL_THREADS, kept, ReadAhead.NONE, Function.identity()), null),
                    "then the samples, from what was kept");
            assertEquals(0, kept.held());
        }
    }

    @Test
    void keepingNothingKeepsNothing() throws IOException {
        try (Recording r = recording(new Random(5), "none.ompprof", 40, 32)) {
            flat(r.recordBatches(Recording.ALL_THREADS, CALLBACKS, ReadAhead.NONE, KeptRecords.NONE), null);
            assertEquals(0, KeptRecords.NONE.held());
            assertSame(
                    List.of(),
                    flat(
                            r.keptBatches(Recording.ALL_THREADS, KeptRecords.NONE, ReadAhead.NONE, Function.identity()),
                            null),
                    "");
            KeptRecords none = KeptRecords.of(SAMPLES, 0);
            flat(r.recordBatches(Recording.ALL_THREADS, CALLBACKS, ReadAhead.NONE, none), null);
            assertEquals(0, none.held());
            assertSame(
                    r.records(SAMPLES).toList(),
                    flat(r.keptBatches(Recording.ALL_THREADS, none, ReadAhead.NONE, Function.identity()), null),
                    "");
        }
    }

    private static List<WireRecord> flat(Iterator<RecordBatch> batches, long[] counted) {
        List<WireRecord> out = new ArrayList<>();
        batches.forEachRemaining(b -> {
            out.addAll(b.records());
            if (counted != null) counted[0] += b.count(SAMPLES);
        });
        return out;
    }

    private static void assertSame(List<WireRecord> expected, List<WireRecord> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++)
            assertTrue(TestRecords.same(expected.get(i), actual.get(i)), what + ": record " + i);
    }
}
