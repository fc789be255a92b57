package org.ompprof.sampler.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.record.ModuleSegment;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.TestRecords;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

class RecordingTest {
    @TempDir
    Path dir;

    static Metadata metadata() {
        return new Metadata(Map.of(Metadata.COMMAND, "./app 'a b'", Metadata.MODE, "wall", Metadata.RATE_HZ, "1000"));
    }

    static List<ThreadInfo> threads() {
        return List.of(
                new ThreadInfo(1, 100, 1, 0, 10, 90, 11, 89, 5, 3, 0, 0, Map.of(1, 4L, 0x11, 1L)),
                new ThreadInfo(2, 101, 2, 1, 12, 0, 13, 80, 7, 2, 4, 1, Map.of(0x100, 7L)));
    }

    static List<ModuleInfo> modules(long imageLength) {
        return List.of(
                new ModuleInfo(
                        1,
                        "/work/app",
                        Wire.MOD_MAIN | Wire.MOD_FD_HELD,
                        0x400000,
                        0x2000,
                        5,
                        6,
                        7,
                        8,
                        "abcd",
                        List.of(new ModuleSegment(0, 0x1000, 0, 0x1000, 5)),
                        1,
                        0,
                        ImageSource.EMBEDDED,
                        "",
                        imageLength,
                        ""),
                new ModuleInfo(
                        2,
                        "/usr/lib/libc.so.6",
                        0,
                        0x7f00,
                        0,
                        1,
                        2,
                        3,
                        4,
                        "",
                        List.of(),
                        2,
                        50,
                        ImageSource.REFERENCE,
                        "/usr/lib/x86_64-linux-gnu/libc.so.6",
                        0,
                        ""),
                new ModuleInfo(
                        3,
                        "/tmp/gone.so",
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        "",
                        List.of(),
                        3,
                        0,
                        ImageSource.MISSING,
                        "",
                        0,
                        "deleted"));
    }

    static Stats stats() {
        long[] hist = new long[Wire.HIST_BUCKETS];
        hist[10] = 90;
        hist[100] = 9;
        hist[260] = 1;
        return new Stats(
                new HandlerHistogram(hist),
                100,
                123_456,
                2,
                3,
                4,
                1,
                List.of("bad size"),
                List.of(new RingStats(0, 5, 1, 200, 3, 0, 0)),
                List.of("/tmp/gone.so: deleted"),
                4096,
                8192);
    }

    /** Writes a recording with the tables above, an image and the given per-thread records. */
    Path write(Path out, byte[] image, Map<Integer, List<WireRecord>> records) throws IOException {
        return write(out, image, records, true);
    }

    /** As above; unless {@code deflated}, the records and module image sections are stored as they are. */
    Path write(Path out, byte[] image, Map<Integer, List<WireRecord>> records, boolean deflated) throws IOException {
        try (RecordingWriter w = RecordingWriter.create(out)) {
            if (!deflated) w.forOneRead();
            w.metadata(metadata());
            w.threads(threads());
            w.modules(modules(image.length));
            w.stats(stats());
            assertEquals(image.length, w.moduleImage(1, new ByteArrayInputStream(image)));
            for (var e : records.entrySet()) {
                try (RecordingWriter.ThreadRecords t = w.threadRecords(e.getKey())) {
                    for (WireRecord r : e.getValue()) t.add(RecordEncoder.encode(r));
                }
            }
            w.commit();
        }
        return out;
    }

    static Map<Integer, List<WireRecord>> randomRecords(Random rnd, int perThread) {
        Map<Integer, List<WireRecord>> m = new java.util.TreeMap<>();
        for (int t = 1; t <= 3; t++) {
            List<WireRecord> list = new ArrayList<>();
            for (int i = 0; i < perThread; i++) list.add(TestRecords.random(rnd));
            m.put(t, list);
        }
        return m;
    }

    /**
     * Threads' records written at once, each through its own writer (as record writes them when the program ends, on
     * threads of its own): their sections interleave in the file, and readers still get every thread's records whole,
     * in order, thread by thread by number, deflated or not. Alternating on one thread interleaves them for sure.
     */
    @ParameterizedTest
    @ValueSource(strings = {"alternating/deflated", "alternating/stored", "threads/deflated", "threads/stored"})
    void threadsWrittenAtOnceReadBackThreadByThread(String how) throws Exception {
        boolean deflated = how.endsWith("/deflated");
        Random rnd = new Random(how.hashCode());
        Map<Integer, List<byte[]>> sent = new LinkedHashMap<>();
        for (int t : new int[] {7, 2, 5, 3}) { // begun in no particular order
            List<byte[]> list = new ArrayList<>();
            for (int i = 0; i < 6000; i++) list.add(RecordEncoder.encode(TestRecords.random(rnd)));
            sent.put(t, list);
        }
        Path out = dir.resolve("p.ompprof");
        try (RecordingWriter w = RecordingWriter.create(out);
                var pool = Executors.newFixedThreadPool(sent.size())) {
            if (!deflated) w.forOneRead();
            w.metadata(metadata());
            w.threads(threads());
            w.modules(modules(0));
            w.stats(stats());
            if (how.startsWith("alternating")) {
                List<RecordingWriter.ThreadRecords> writers = new ArrayList<>();
                for (int t : sent.keySet()) writers.add(w.threadRecords(t));
                for (int i = 0; i < 6000; i++) {
                    int k = 0;
                    for (List<byte[]> list : sent.values()) writers.get(k++).add(list.get(i));
                }
                for (var t : writers) t.close();
            } else {
                List<Future<?>> done = new ArrayList<>();
                for (var e : sent.entrySet())
                    done.add(pool.submit(() -> {
                        try (RecordingWriter.ThreadRecords t = w.threadRecords(e.getKey())) {
                            for (byte[] r : e.getValue()) t.add(r);
                        }
                        return null;
                    }));
                for (var f : done) f.get();
            }
            w.commit();
        }
        try (Recording r = Recording.open(out)) {
            List<Long> keys = r.sections().stream()
                    .filter(x -> x.kind() == SectionKind.RECORDS)
                    .map(Recording.SectionRef::key)
                    .toList();
            assertTrue(keys.size() >= 8, keys.size() + " sections");
            if (how.startsWith("alternating"))
                assertEquals(4, new HashSet<>(keys.subList(0, 4)).size(), "interleaved: " + keys);
            assertEquals(List.of(2, 3, 5, 7), r.recordThreads());
            List<WireRecord> all = r.records().toList();
            int at = 0;
            for (int t : new TreeSet<>(sent.keySet())) {
                List<WireRecord> one = r.records(t).toList();
                assertEquals(sent.get(t).size(), one.size());
                for (int i = 0; i < one.size(); i++) {
                    assertArrayEquals(sent.get(t).get(i), RecordEncoder.encode(one.get(i)));
                    assertArrayEquals(sent.get(t).get(i), RecordEncoder.encode(all.get(at++)), "thread by thread");
                }
            }
            assertEquals(at, all.size());
        }
    }

    /**
     * A recording written for the profile build alone (record's raw recording): the same records and module image,
     * not deflated.
     */
    @Test
    void undeflatedRecordsAndImagesReadTheSame() throws IOException {
        Random rnd = new Random(7);
        Map<Integer, List<WireRecord>> records = randomRecords(rnd, 200);
        byte[] image = new byte[RecordingFormat.CHUNK + 4321]; // two sections; zeros, so deflating shrinks them
        for (int i = 0; i < image.length; i += 97) image[i] = (byte) rnd.nextInt();
        Path deflated = write(dir.resolve("d.ompprof"), image, records, true);
        Path stored = write(dir.resolve("s.ompprof"), image, records, false);
        try (Recording d = Recording.open(deflated);
                Recording s = Recording.open(stored)) {
            for (int t = 1; t <= 3; t++) {
                List<WireRecord> a = d.records(t).toList(), b = s.records(t).toList();
                assertEquals(a.size(), b.size());
                for (int i = 0; i < a.size(); i++) assertTrue(TestRecords.same(a.get(i), b.get(i)));
            }
            assertArrayEquals(image, s.moduleImage(1).orElseThrow());
            assertArrayEquals(image, d.moduleImage(1).orElseThrow());
            for (SectionKind kind : List.of(SectionKind.RECORDS, SectionKind.MODULE_IMAGE)) {
                assertTrue(
                        s.sections().stream()
                                .filter(x -> x.kind() == kind)
                                .allMatch(x -> (x.flags() & RecordingFormat.FLAG_DEFLATE) == 0
                                        && x.rawLength() == x.storedLength()),
                        kind + " stored");
                assertTrue(
                        d.sections().stream()
                                .filter(x -> x.kind() == kind)
                                .allMatch(x -> (x.flags() & RecordingFormat.FLAG_DEFLATE) != 0),
                        kind + " deflated");
                assertTrue(s.sections().stream().anyMatch(x -> x.kind() == kind), kind + " present");
            }
        }
    }

    @Test
    void roundTripWithChunkedRecordsAndImages() throws IOException {
        Random rnd = new Random(5);
        byte[] image = new byte[RecordingFormat.CHUNK * 2 + 12345];
        rnd.nextBytes(image);
        Map<Integer, List<WireRecord>> records = randomRecords(rnd, 300);
        List<WireRecord> big = new ArrayList<>();
        for (int i = 0; i < 700; i++) big.add(TestRecords.sample(4, i, 8000)); // > 1 chunk of records
        records.put(4, big);
        Path file = write(dir.resolve("a.ompprof"), image, records);
        try (Recording r = Recording.open(file)) {
            assertEquals(metadata(), r.metadata());
            assertEquals(threads(), r.threads());
            assertEquals(modules(image.length), r.modules());
            assertEquals(stats(), r.stats());
            assertArrayEquals(image, r.moduleImage(1).orElseThrow());
            assertTrue(r.moduleImage(2).isEmpty());
            assertEquals(List.of(1, 2, 3, 4), r.recordThreads());
            assertTrue(r.sections().stream()
                            .filter(s -> s.kind() == SectionKind.RECORDS && s.key() == 4)
                            .count()
                    > 1);
            for (int t = 1; t <= 4; t++) {
                List<WireRecord> back = r.records(t).toList();
                List<WireRecord> sent = records.get(t);
                assertEquals(sent.size(), back.size());
                for (int i = 0; i < sent.size(); i++) assertTrue(TestRecords.same(sent.get(i), back.get(i)));
            }
            assertEquals(1600, r.records().count());
            long[] samples = {0};
            r.forEachRecord(new org.ompprof.sampler.record.RecordVisitor() {
                @Override
                public void sample(SampleRecord s) {
                    samples[0]++;
                }
            });
            assertEquals(r.records().filter(x -> x instanceof SampleRecord).count(), samples[0]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void everyTruncationIsReportedWithItsOffset(int seed) throws IOException {
        Random rnd = new Random(seed);
        byte[] image = new byte[3000];
        rnd.nextBytes(image);
        byte[] whole = Files.readAllBytes(write(dir.resolve("whole.ompprof"), image, randomRecords(rnd, 20)));
        Path cut = dir.resolve("cut.ompprof");
        for (int len = 0; len < whole.length; len += 1 + rnd.nextInt(Math.max(1, whole.length / 120))) {
            Files.write(cut, java.util.Arrays.copyOf(whole, len));
            final int l = len;
            UserError e = assertThrows(UserError.class, () -> readEverything(cut), () -> "length " + l);
            if (len >= 8) {
                assertTrue(e instanceof RecordingFormatException, e.getMessage());
                assertTrue(e.getMessage().startsWith(cut + ": "), e.getMessage());
                assertTrue(e.getMessage().contains("offset"), e.getMessage());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 5, 6})
    void flippedBytesAreReportedWithAnOffset(int seed) throws IOException {
        Random rnd = new Random(seed);
        byte[] image = new byte[5000];
        rnd.nextBytes(image);
        byte[] whole = Files.readAllBytes(write(dir.resolve("whole.ompprof"), image, randomRecords(rnd, 20)));
        Path bad = dir.resolve("bad.ompprof");
        for (int i = 0; i < 80; i++) {
            byte[] b = whole.clone();
            int at = rnd.nextInt(b.length);
            b[at] ^= (byte) (1 << rnd.nextInt(8));
            Files.write(bad, b);
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                RecordingFormatException e =
                        assertThrows(RecordingFormatException.class, () -> readEverything(bad), "flip at " + at);
                assertTrue(
                        e.getMessage().contains("offset")
                                || e.getMessage().contains("not an ompprof recording")
                                || e.getMessage().contains("newer"),
                        e.getMessage());
                // a whole file with a damaged byte is damaged, not cut short (unless the byte is in its end section)
                if (at < b.length - 32) assertFalse(e.getMessage().contains("truncated"), e.getMessage());
            });
        }
    }

    @Test
    void aSectionLengthRunningPastTheEndIsDamageNotTruncation() throws IOException {
        Random rnd = new Random(11);
        byte[] image = new byte[3000];
        rnd.nextBytes(image);
        byte[] b = Files.readAllBytes(write(dir.resolve("whole.ompprof"), image, randomRecords(rnd, 20)));
        b[16 + 16 + 5] ^= 0x01; // the first section's stored length, grown by 2^40 bytes
        Path bad = Files.write(dir.resolve("bad.ompprof"), b);
        RecordingFormatException e = assertThrows(RecordingFormatException.class, () -> readEverything(bad));
        assertTrue(e.getMessage().contains("corrupt section at offset 16 (length "), e.getMessage());
        assertTrue(e.getMessage().contains("runs past the end section"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 9, 10})
    void randomFilesAreRejected(int seed) throws IOException {
        Random rnd = new Random(seed);
        Path junk = dir.resolve("junk.ompprof");
        for (int i = 0; i < 100; i++) {
            byte[] b = new byte[rnd.nextInt(0, 4000)];
            rnd.nextBytes(b);
            if (rnd.nextBoolean() && b.length >= 16) {
                System.arraycopy(RecordingFormat.MAGIC, 0, b, 0, 8);
                RecordingWriter.putInt(b, 8, 1);
                RecordingWriter.putInt(b, 12, 0);
            }
            Files.write(junk, b);
            assertThrows(UserError.class, () -> readEverything(junk));
        }
    }

    @Test
    void clearMessagesForMissingAndForeignFiles() throws IOException {
        assertEquals(
                "no such file: " + dir.resolve("nope"),
                assertThrows(UserError.class, () -> Recording.open(dir.resolve("nope")))
                        .getMessage());
        Path text = Files.writeString(dir.resolve("notes.txt"), "hello world, not a recording");
        assertEquals(
                text + ": not an ompprof recording",
                assertThrows(UserError.class, () -> Recording.open(text)).getMessage());
        byte[] newer = new byte[16];
        System.arraycopy(RecordingFormat.MAGIC, 0, newer, 0, 8);
        newer[8] = 9;
        Path future = Files.write(dir.resolve("future.ompprof"), newer);
        assertTrue(assertThrows(UserError.class, () -> Recording.open(future))
                .getMessage()
                .contains("version 9 is newer"));
    }

    @Test
    void unfinishedWriteLeavesTheOldFileAlone() throws IOException {
        Path out = Files.writeString(dir.resolve("keep.ompprof"), "the previous recording");
        try (RecordingWriter w = RecordingWriter.create(out)) {
            w.metadata(metadata());
            assertTrue(Files.exists(w.tempFile()));
            // no commit: as if the recorder failed half-way
        }
        assertEquals("the previous recording", Files.readString(out));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(out), files.toList(), "the temporary file is gone");
        }
        assertThrows(IllegalStateException.class, () -> {
            try (RecordingWriter w = RecordingWriter.create(out)) {
                w.metadata(metadata());
                throw new IllegalStateException("disk on fire");
            }
        });
        assertEquals("the previous recording", Files.readString(out));
    }

    @Test
    void commitReplacesTheOldFile() throws IOException {
        Path out = Files.writeString(dir.resolve("new.ompprof"), "old");
        write(out, new byte[10], Map.of());
        try (Recording r = Recording.open(out)) {
            assertEquals(metadata(), r.metadata());
            assertEquals(0, r.records().count());
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void histogramQuantiles() {
        HandlerHistogram h = stats().histogram();
        assertEquals(100, h.total());
        assertEquals(176, h.quantileNs(0.5));
        assertEquals(1616, h.quantileNs(0.99));
        assertEquals(4096L << 5, h.maxNs());
        assertEquals(0, HandlerHistogram.empty().quantileNs(0.5));
        assertFalse(h.equals(HandlerHistogram.empty()));
    }

    /** Opens the file and touches every lazily read part. */
    static void readEverything(Path file) {
        try (Recording r = Recording.open(file)) {
            r.records().forEach(x -> {});
            for (ModuleInfo m : r.modules()) r.moduleImage(m.moduleId());
        }
    }
}
