package org.ompprof.sampler.collect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random streams of records (sizes from the 8-byte minimum to twice a block, stack-like
 * contents, interleaved with module images; runs of callback records long enough to be written
 * straight among those gathered into blocks): each stream reads back whole and in order, the
 * images at their spans, and stack-like records take a fraction of their size on disk.
 */
class SpoolTest {
    @TempDir
    Path dir;

    private static byte[] record(Random r, int size) {
        byte[] b = new byte[size];
        for (int i = 8; i < size; i += 8) { // stack-like: small values and repeated return addresses
            long v = r.nextInt(4) == 0 ? 0x5555_5555_0000L + r.nextInt(64) * 16 : r.nextInt(256);
            for (int k = 0; k < 8 && i + k < size; k++) b[i + k] = (byte) (v >>> (8 * k));
        }
        MemorySegment.ofArray(b).set(ValueLayout.JAVA_INT_UNALIGNED, 0, size); // the length every record starts with
        return b;
    }

    private static byte[] concat(List<byte[]> parts) {
        byte[] out = new byte[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void streamsReadBackWholeAndInOrder(long seed) throws Exception {
        Random r = new Random(seed);
        Map<Long, List<byte[]>> sent = new HashMap<>();
        List<byte[]> images = new ArrayList<>();
        List<Spool.Span> spans = new ArrayList<>();
        try (Spool spool = Spool.create(dir, ".t-")) {
            long sampleBytes = 0, imageBytes = 0;
            for (int i = 0; i < 3000; i++) {
                long stream = Spool.stream(r.nextInt(5), r.nextInt(2));
                List<byte[]> run = new ArrayList<>(); // a run of records, appended at once, as the drainer does
                for (int k = r.nextInt(8) == 0 ? 1 + r.nextInt(100) : 1; k > 0; k--) {
                    int size = 8 * (r.nextInt(50) == 0 ? 1 + r.nextInt(Spool.BLOCK / 4) : 1 + r.nextInt(750));
                    run.add(record(r, size));
                }
                byte[] bytes = concat(run);
                spool.append(stream, MemorySegment.ofArray(bytes));
                if ((stream & 1) == 0) sampleBytes += bytes.length;
                sent.computeIfAbsent(stream, k -> new ArrayList<>()).addAll(run);
                if (r.nextInt(500) == 0) {
                    byte[] image = new byte[r.nextInt(100_000)];
                    r.nextBytes(image);
                    images.add(image);
                    imageBytes += image.length;
                    spans.add(spool.appendBytes(MemorySegment.ofArray(image)));
                }
            }
            spool.flush();
            assertTrue(spool.directBlocks() > 0, "long runs of callback records written straight");
            assertEquals(sent.keySet(), new java.util.HashSet<>(spool.streams()));
            for (var e : sent.entrySet()) {
                Spool.RecordCursor c = spool.cursor(e.getKey());
                for (byte[] expected : e.getValue()) {
                    assertTrue(c.advance());
                    assertArrayEquals(expected, Arrays.copyOfRange(c.bytes(), c.at(), c.at() + c.size()));
                }
                assertFalse(c.advance());
            }
            for (int i = 0; i < images.size(); i++) {
                try (InputStream in = spool.open(spans.get(i))) {
                    assertArrayEquals(images.get(i), in.readAllBytes());
                }
            }
            long eventBytes = spool.recordBytes() - sampleBytes; // stored as they are, below RAW_EVENTS_UP_TO
            assertTrue(
                    spool.size() < eventBytes + sampleBytes / 2 + imageBytes,
                    spool.size() + " bytes on disk for " + sampleBytes + " of samples and " + eventBytes
                            + " of events");
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the spool file is gone");
        }
    }
}
