package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.wire.Wire;

/** A repeated sample is the sample before it in its run again, at its own time and weight. */
class RepeatedSamplesTest {
    /** A thread's run: whole random samples, each followed by a few repeats, with other records between. */
    private static List<WireRecord> run(Random rnd, List<WireRecord> expected) {
        List<WireRecord> wire = new ArrayList<>();
        long t = 1_000;
        for (int i = 0; i < 30; i++) {
            SampleRecord random = (SampleRecord) TestRecords.random(rnd, Wire.REC_SAMPLE);
            SampleRecord whole = random.at(t++, random.weightNs());
            wire.add(whole);
            expected.add(whole);
            for (int k = rnd.nextInt(4); k > 0; k--) {
                if (rnd.nextBoolean()) {
                    WireRecord other = TestRecords.random(rnd, Wire.REC_SYNC_REGION);
                    wire.add(other);
                    expected.add(other);
                }
                long weight = rnd.nextLong(1, 1 << 30);
                wire.add(TestRecords.repeatOf(whole, t, weight));
                expected.add(whole.at(t++, weight));
            }
        }
        return wire;
    }

    private static MemorySegment bytes(List<WireRecord> records) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (WireRecord r : records) all.writeBytes(RecordEncoder.encode(r));
        return MemorySegment.ofArray(all.toByteArray());
    }

    private static void assertSame(List<WireRecord> expected, List<WireRecord> got) {
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < expected.size(); i++) {
            WireRecord e = expected.get(i), g = got.get(i);
            assertTrue(TestRecords.same(e, g), () -> e + "\n!=\n" + g);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void aRunResolvesEachRepeatToTheSampleBeforeIt(int seed) {
        List<WireRecord> expected = new ArrayList<>();
        MemorySegment run = bytes(run(new Random(seed), expected));
        List<WireRecord> all = new ArrayList<>();
        RecordDecoder.decodeAll(run, all::add);
        assertSame(expected, all);
        List<WireRecord> iterated = new ArrayList<>();
        RecordDecoder.iterate(run, true).forEachRemaining(iterated::add);
        assertSame(expected, iterated);
        List<WireRecord> samples = new ArrayList<>();
        RecordDecoder.iterate(run, false, t -> t == Wire.REC_SAMPLE).forEachRemaining(samples::add);
        assertSame(expected.stream().filter(r -> r instanceof SampleRecord).toList(), samples);
    }

    @Test
    void aRepeatResolvedSharesTheStackOfTheSampleBefore() {
        SampleRecord whole = TestRecords.sample(3, 1, 4096);
        MemorySegment run = bytes(List.of(whole, TestRecords.repeatOf(whole, 5_000, 7)));
        List<WireRecord> all = new ArrayList<>();
        RecordDecoder.decodeAll(run, all::add, true);
        SampleRecord again = (SampleRecord) all.get(1);
        assertEquals(5_000, again.timeNs());
        assertEquals(7, again.weightNs());
        assertEquals(Wire.SAMPLE_OMPT_READY, again.flags(), "the flags of the sample it repeats");
        assertTrue(((SampleRecord) all.get(0)).context() == again.context(), "not copied");
        assertEquals(whole.waitId(), again.waitId());
    }

    @Test
    void aRepeatWithNoSampleBeforeItIsMalformed() {
        SampleRecord whole = TestRecords.sample(3, 1, 16);
        MemorySegment alone = bytes(List.of(TestRecords.repeatOf(whole, 5_000, 7), whole));
        MalformedRecordException e =
                assertThrows(MalformedRecordException.class, () -> RecordDecoder.decodeAll(alone, r -> {}));
        assertEquals("a repeated sample with no sample of its thread before it at byte 0", e.getMessage());
        Iterator<WireRecord> it = RecordDecoder.iterate(alone, false);
        assertThrows(MalformedRecordException.class, it::hasNext);
        assertThrows(
                MalformedRecordException.class,
                () -> RecordDecoder.decode(
                        MemorySegment.ofArray(RecordEncoder.encode(TestRecords.repeatOf(whole, 5_000, 7)))),
                "one record alone cannot be resolved");
        SampleRecord otherThread = TestRecords.sample(4, 1, 16);
        MemorySegment crossed = bytes(List.of(otherThread, TestRecords.repeatOf(whole, 5_000, 7)));
        assertThrows(MalformedRecordException.class, () -> RecordDecoder.decodeAll(crossed, r -> {}));
    }

    @Test
    void aRepeatCarryingAStackOrLevelsIsMalformed() {
        SampleRecord whole = TestRecords.sample(3, 1, 16);
        SampleRecord carrying =
                new SampleRecord(3, 9, 9, 0, 0, 1, Wire.SAMPLE_REPEAT, 0, List.of(), List.of(), whole.context());
        byte[] bytes = RecordEncoder.encode(carrying);
        String problem = RecordDecoder.problem(MemorySegment.ofArray(bytes));
        assertTrue(problem != null && problem.contains("bad counts"), problem);
    }

    @Test
    void rawBytesTellRepeatsFromWholeSamples() {
        SampleRecord whole = TestRecords.sample(3, 1, 16);
        byte[] w = RecordEncoder.encode(whole), r = RecordEncoder.encode(TestRecords.repeatOf(whole, 9, 9));
        byte[] other = RecordEncoder.encode(TestRecords.random(new Random(1), Wire.REC_SYNC_REGION));
        byte[] both = new byte[8 + w.length + r.length];
        System.arraycopy(w, 0, both, 8, w.length);
        System.arraycopy(r, 0, both, 8 + w.length, r.length);
        assertTrue(RepeatedSamples.isWholeSample(both, 8, w.length));
        assertFalse(RepeatedSamples.isRepeat(both, 8, w.length));
        assertTrue(RepeatedSamples.isRepeat(both, 8 + w.length, r.length));
        assertFalse(RepeatedSamples.isWholeSample(both, 8 + w.length, r.length));
        assertFalse(RepeatedSamples.isRepeat(other, 0, other.length));
        assertFalse(RepeatedSamples.isWholeSample(other, 0, other.length));
        byte[] expanded = RepeatedSamples.expanded(w, both, 8 + w.length);
        SampleRecord e = (SampleRecord) RecordDecoder.decode(MemorySegment.ofArray(expanded));
        assertEquals(9, e.timeNs());
        assertEquals(9, e.weightNs());
        assertEquals(whole.context().stackLength(), e.context().stackLength());
    }
}
