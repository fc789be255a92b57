package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.wire.Wire;

class RecordDecoderTest {
    static Stream<Arguments> typesAndSeeds() {
        return IntStream.rangeClosed(Wire.REC_SAMPLE, Wire.REC_MPI)
                .boxed()
                .flatMap(t -> IntStream.range(0, 5).mapToObj(seed -> Arguments.of(t, seed)));
    }

    @ParameterizedTest(name = "type {0} seed {1}")
    @MethodSource("typesAndSeeds")
    void everyTypeRoundTrips(int type, int seed) {
        WireRecord r = TestRecords.random(new Random(seed * 31L + type), type);
        byte[] bytes = RecordEncoder.encode(r);
        assertEquals(0, bytes.length % 8);
        assertEquals(null, RecordDecoder.problem(MemorySegment.ofArray(bytes)));
        WireRecord back = RecordDecoder.decode(MemorySegment.ofArray(bytes));
        assertEquals(r.getClass(), back.getClass());
        assertEquals(type, back.type());
        assertTrue(TestRecords.same(r, back), () -> r + "\n!=\n" + back);
        assertArrayEquals(bytes, RecordEncoder.encode(back));
    }

    @Test
    void decodedFieldsLandWhereTheWireSaysTheyAre() {
        SampleRecord s = TestRecords.sample(7, 3, 5);
        MemorySegment b = MemorySegment.ofArray(RecordEncoder.encode(s));
        int p = Wire.RecordHeader.SIZEOF;
        assertEquals(Wire.REC_SAMPLE, Le.u16(b, Wire.RecordHeader.TYPE));
        assertEquals(7, Le.u32(b, Wire.RecordHeader.THREAD_SEQ));
        assertEquals(1_003, Le.u64(b, p + Wire.Sample.TIME_NS));
        assertEquals(3, Le.u64(b, p + Wire.Sample.WAIT_ID));
        assertEquals(5, Le.u32(b, p + Wire.Sample.CTX + Wire.Context.STACK_LEN));
        assertEquals(Wire.align(p + Wire.Sample.SIZEOF + 5), b.byteSize());
        SampleRecord back = (SampleRecord) RecordDecoder.decode(b);
        assertEquals(5, back.context().stackLength());
        assertEquals((byte) 4, back.context().stackBytes()[1]);
        assertTrue(back.context().stack().isReadOnly());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomBytesFailCleanly(int seed) {
        Random rnd = new Random(seed);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int i = 0; i < 3000; i++) {
                byte[] junk = new byte[rnd.nextInt(0, 600)];
                rnd.nextBytes(junk);
                if (rnd.nextBoolean() && junk.length >= 16) plausibleHeader(rnd, junk);
                decodeAllOrMalformed(junk);
            }
        });
    }

    /** Random payloads behind headers that pass the first checks reach the per-type checks. */
    private static void plausibleHeader(Random rnd, byte[] junk) {
        MemorySegment s = MemorySegment.ofArray(junk);
        int size = junk.length & ~7;
        Le.put32(s, 0, rnd.nextInt(4) == 0 ? rnd.nextInt() : size);
        Le.put16(s, 4, rnd.nextInt(0, Wire.REC_REGION_BATCH_PACKED + 2));
        Le.put16(s, 6, rnd.nextInt(10) == 0 ? Wire.REC_VERSION + 1 : Wire.REC_VERSION);
        if (rnd.nextBoolean() && size >= 16 + 48) Le.put32(s, 16 + Wire.Sample.TASK_LEVELS, rnd.nextInt(3));
        if (rnd.nextBoolean() && size >= 16 + 80)
            Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.STACK_LEN, rnd.nextInt(64));
        if (rnd.nextBoolean() && size >= 16 + 88)
            Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.FRAME_COUNT, rnd.nextInt(4));
        if (rnd.nextBoolean() && size >= 16 + 88)
            Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.WALK_STOP, rnd.nextInt(4));
    }

    @ParameterizedTest
    @ValueSource(ints = {11, 12, 13})
    void truncatedStreamsNameTheBadRecord(int seed) {
        Random rnd = new Random(seed);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            starts.add(all.size());
            all.writeBytes(RecordEncoder.encode(TestRecords.random(rnd)));
        }
        byte[] bytes = all.toByteArray();
        List<WireRecord> whole = new ArrayList<>();
        RecordDecoder.decodeAll(MemorySegment.ofArray(bytes), whole::add);
        assertEquals(40, whole.size());
        for (int cut = 1; cut < bytes.length; cut += rnd.nextInt(1, 40)) {
            final int c = cut;
            if (starts.contains(c)) continue; // a cut between records is a valid shorter stream
            MalformedRecordException e = assertThrows(
                    MalformedRecordException.class,
                    () -> RecordDecoder.decodeAll(MemorySegment.ofArray(bytes).asSlice(0, c), r -> {}));
            assertTrue(e.getMessage().contains("at byte"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {21, 22, 23, 24})
    void flippedBytesDecodeOrFailCleanly(int seed) {
        Random rnd = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            byte[] b = RecordEncoder.encode(TestRecords.random(rnd));
            int flips = rnd.nextInt(1, 4);
            for (int f = 0; f < flips; f++) b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            decodeAllOrMalformed(b);
        }
    }

    @Test
    void problemsAreSpecific() {
        byte[] b = RecordEncoder.encode(TestRecords.sample(1, 1, 8));
        MemorySegment s = MemorySegment.ofArray(b);
        Le.put16(s, Wire.RecordHeader.VERSION, 9);
        assertTrue(RecordDecoder.problem(s).contains("version 9"));
        Le.put16(s, Wire.RecordHeader.VERSION, Wire.REC_VERSION);
        Le.put32(s, 16 + Wire.Sample.TASK_LEVELS, 17);
        assertTrue(RecordDecoder.problem(s).contains("sample"), RecordDecoder.problem(s));
        Le.put32(s, 16 + Wire.Sample.TASK_LEVELS, 0);
        Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.FRAME_COUNT, Wire.MAX_WALK_FRAMES + 2);
        assertTrue(RecordDecoder.problem(s).contains("sample"), RecordDecoder.problem(s));
        Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.FRAME_COUNT, 0);
        Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.WALK_STOP, 7);
        assertTrue(RecordDecoder.problem(s).contains("sample"), RecordDecoder.problem(s));
        Le.put32(s, 16 + Wire.Sample.CTX + Wire.Context.WALK_STOP, 0);
        Le.put16(s, Wire.RecordHeader.TYPE, 99);
        assertTrue(RecordDecoder.problem(s).contains("unknown record type 99"));
        assertTrue(RecordDecoder.problem(MemorySegment.ofArray(new byte[8])).contains("shorter than its header"));
    }

    private static void decodeAllOrMalformed(byte[] bytes) {
        try {
            RecordDecoder.decodeAll(MemorySegment.ofArray(bytes), r -> {});
        } catch (MalformedRecordException expected) {
            assertTrue(expected.getMessage() != null && !expected.getMessage().isBlank());
        }
    }
}
