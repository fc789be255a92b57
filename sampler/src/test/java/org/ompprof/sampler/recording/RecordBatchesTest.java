package org.ompprof.sampler.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.record.TestRecords;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * Sections decoded ahead on other threads reach the reader as they would one by one: the same
 * records in the same order, the same failure at the same place; and a section skipped because
 * it was seen to hold none of the wanted types never hides a record.
 */
class RecordBatchesTest {
    @TempDir
    Path dir;

    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private Recording recording(long seed) throws IOException {
        Random rnd = new Random(seed);
        Map<Integer, List<WireRecord>> records = RecordingTest.randomRecords(rnd, 400);
        List<WireRecord> samples = new ArrayList<>();
        for (int i = 0; i < 600; i++) samples.add(TestRecords.sample(4, i, 8000)); // several sections
        records.put(4, samples);
        RecordingTest writer = new RecordingTest();
        return Recording.open(writer.write(dir.resolve("r" + seed + ".ompprof"), new byte[16], records));
    }

    private static List<WireRecord> flat(Iterator<RecordBatch> batches) {
        List<WireRecord> out = new ArrayList<>();
        batches.forEachRemaining(b -> out.addAll(b.records()));
        return out;
    }

    private static void assertSame(List<WireRecord> expected, List<WireRecord> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++) assertTrue(TestRecords.same(expected.get(i), actual.get(i)), what);
    }

    @Test
    void batchesAheadAreTheRecordsInOrder() throws IOException {
        List<IntPredicate> wants = List.of(
                t -> true, t -> t == Wire.REC_SAMPLE, t -> t != Wire.REC_SAMPLE, t -> t == Wire.REC_MUTEX, t -> false);
        for (long seed = 1; seed <= 3; seed++) {
            try (Recording r = recording(seed)) {
                for (IntPredicate types : wants) {
                    for (long thread : new long[] {Recording.ALL_THREADS, 1, 4}) {
                        List<WireRecord> expected = thread == Recording.ALL_THREADS
                                ? r.records(types).toList()
                                : r.records((int) thread, types).toList();
                        for (ReadAhead ahead : List.of(
                                ReadAhead.NONE,
                                ReadAhead.on(pool, 1),
                                ReadAhead.on(pool, 5),
                                ReadAhead.on(pool, 1, 7))) {
                            assertSame(
                                    expected,
                                    flat(r.recordBatches(thread, types, ahead)),
                                    "seed " + seed + ", thread " + thread + ", " + ahead);
                        }
                    }
                }
            }
        }
    }

    /** Reads that skip the sections seen to lack a type still find every record of the types present. */
    @Test
    void skippedSectionsHideNoRecord() throws IOException {
        try (Recording r = recording(7)) {
            List<WireRecord> all = r.records().toList(); // every section read through: their types are known now
            for (int type = 0; type < 32; type++) {
                int t = type;
                List<WireRecord> expected =
                        all.stream().filter(x -> x.type() == t).toList();
                assertSame(expected, r.records(x -> x == t).toList(), "type " + t);
                assertSame(
                        expected,
                        flat(r.recordBatches(Recording.ALL_THREADS, x -> x == t, ReadAhead.on(pool, 2))),
                        "type " + t);
            }
            assertFalse(all.isEmpty());
        }
    }

    /**
     * The writer marks the sections that hold samples alone (a sample-heavy run's are nearly all such), and a first
     * read of other records skips them without inflating them: it takes as many sections as are not marked, and
     * finds every record it wants.
     */
    @Test
    void sectionsOfSamplesAloneAreMarkedAndSkippedUnread() throws IOException {
        for (long seed = 11; seed <= 13; seed++) {
            Path file;
            List<WireRecord> others;
            try (Recording r = recording(seed)) {
                file = r.path();
                List<RecordBatch> sections = new ArrayList<>();
                r.recordBatches(Recording.ALL_THREADS, t -> true, ReadAhead.NONE)
                        .forEachRemaining(sections::add);
                List<Recording.SectionRef> refs = recordSections(r);
                assertEquals(refs.size(), sections.size());
                for (int i = 0; i < refs.size(); i++) {
                    boolean samplesAlone =
                            sections.get(i).records().stream().allMatch(x -> x.type() == Wire.REC_SAMPLE);
                    assertEquals(samplesAlone, isMarked(refs.get(i)), "seed " + seed + ", section " + i);
                }
                others = sections.stream()
                        .flatMap(b -> b.records().stream())
                        .filter(x -> x.type() != Wire.REC_SAMPLE)
                        .toList();
            }
            try (Recording r = Recording.open(file)) { // nothing read yet: only the marks tell what to skip
                long marked = recordSections(r).stream()
                        .filter(RecordBatchesTest::isMarked)
                        .count();
                assertTrue(marked >= 2, "thread 4's samples take several sections: " + marked + " marked");
                List<RecordBatch> read = new ArrayList<>();
                r.recordBatches(Recording.ALL_THREADS, t -> t != Wire.REC_SAMPLE, ReadAhead.on(pool, 3))
                        .forEachRemaining(read::add);
                assertEquals(recordSections(r).size() - marked, read.size(), "sections taken");
                assertSame(
                        others, read.stream().flatMap(b -> b.records().stream()).toList(), "seed " + seed);
            }
        }
    }

    /**
     * A mark that lies (a section marked as holding samples alone that holds another record) hid that record from the
     * reads that trusted it: a read of the section's records refuses the file, naming the mark.
     */
    @Test
    void aFalseMarkIsRefusedWhereTheSectionIsRead() throws IOException {
        Path file;
        long header;
        try (Recording r = recording(21)) {
            file = r.path();
            header = recordSections(r).stream()
                    .filter(x -> !isMarked(x))
                    .findFirst()
                    .orElseThrow()
                    .offset();
        }
        try (var ch = java.nio.channels.FileChannel.open(
                file, java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.READ)) {
            java.nio.ByteBuffer flags = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            ch.read(flags, header + 4);
            flags.flip();
            int marked = flags.getInt() | RecordingFormat.FLAG_SAMPLES_ONLY;
            flags.clear();
            flags.putInt(marked).flip();
            ch.write(flags, header + 4); // the checksum covers the payload alone: only the mark changed
        }
        try (Recording r = Recording.open(file)) {
            RecordingFormatException e = assertThrows(
                    RecordingFormatException.class, () -> r.records().toList());
            assertTrue(e.getMessage().contains("marked as holding samples alone"), e.getMessage());
        }
    }

    private static List<Recording.SectionRef> recordSections(Recording r) {
        return r.sections().stream()
                .filter(x -> x.kind() == SectionKind.RECORDS)
                .toList();
    }

    private static boolean isMarked(Recording.SectionRef s) {
        return (s.flags() & RecordingFormat.FLAG_SAMPLES_ONLY) != 0;
    }

    /** Each batch counts all its section's records by type, those it decoded and those it skipped. */
    @Test
    void batchesCountTheirSectionsRecordsByType() throws IOException {
        try (Recording r = recording(9)) {
            long[] counted = new long[2]; // a first read: no section is known to lack samples, none is skipped
            r.recordBatches(Recording.ALL_THREADS, t -> t == Wire.REC_SAMPLE, ReadAhead.on(pool, 3))
                    .forEachRemaining(b -> {
                        counted[0] += b.count(t -> t == Wire.REC_SAMPLE);
                        counted[1] += b.count(t -> true);
                        assertEquals(b.records().size(), b.count(t -> t == Wire.REC_SAMPLE));
                    });
            List<WireRecord> all = r.records().toList();
            assertEquals(all.stream().filter(x -> x.type() == Wire.REC_SAMPLE).count(), counted[0]);
            assertEquals(all.size(), counted[1]);
        }
    }

    @Test
    void aFailingJobFailsWhereItsResultWouldCome() {
        for (ReadAhead ahead : List.of(ReadAhead.NONE, ReadAhead.on(pool, 1), ReadAhead.on(pool, 4))) {
            List<Supplier<Integer>> jobs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                jobs.add(() -> {
                    if (n == 5) throw new IllegalStateException("job 5");
                    return n;
                });
            }
            Iterator<Integer> it = new InOrderAhead<>(jobs, ahead);
            for (int i = 0; i < 5; i++) assertEquals(i, it.next());
            IllegalStateException e = assertThrows(IllegalStateException.class, it::next);
            assertEquals("job 5", e.getMessage());
        }
    }
}
