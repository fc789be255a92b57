package org.ompprof.sampler.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.record.Context;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.RepeatedSamples;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.SyncRegion;
import org.ompprof.sampler.record.TestRecords;
import org.ompprof.sampler.record.WireRecord;
import org.ompprof.sampler.wire.Wire;

/**
 * A thread's records are cut into sections that readers decode apart (on several threads): a section never begins
 * with a repeated sample, whose sample before it would lie in another section; the writer sends that one whole.
 */
class RepeatedSamplesInSectionsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"1/deflated", "2/stored", "3/deflated", "4/stored"})
    void sectionsBeginWithWholeSamplesAndReadBackTheSame(String how) throws Exception {
        Random rnd = new Random(how.hashCode());
        int seq = 3;
        List<WireRecord> wire = new ArrayList<>();
        List<Long> expectedTimes = new ArrayList<>();
        List<Integer> expectedStacks = new ArrayList<>();
        Set<Long> repeatTimes = new HashSet<>();
        long t = 1;
        while (wire.size() < 6_000) {
            byte[] stack = new byte[8 * rnd.nextInt(1, 600)];
            rnd.nextBytes(stack);
            SampleRecord whole = new SampleRecord(
                    seq,
                    t,
                    1_000_000,
                    42,
                    0,
                    1,
                    Wire.SAMPLE_OMPT_READY | Wire.SAMPLE_OUTSIDE,
                    0,
                    List.of(),
                    List.of(),
                    new Context(0x401000 + t, 0x7ffd0000, 0, 0, MemorySegment.ofArray(stack)));
            wire.add(whole);
            expectedTimes.add(t++);
            expectedStacks.add(stack.length);
            for (int k = rnd.nextInt(0, 40); k > 0; k--) {
                if (rnd.nextInt(8) == 0) wire.add(new SyncRegion(seq, t++, 5, 6, 0x401000, 9, 1, 0));
                wire.add(TestRecords.repeatOf(whole, t, 1_000_000));
                repeatTimes.add(t);
                expectedTimes.add(t++);
                expectedStacks.add(stack.length);
            }
        }
        Path out = dir.resolve("r.ompprof");
        try (RecordingWriter w = RecordingWriter.create(out)) {
            if (how.endsWith("stored")) w.forOneRead();
            w.metadata(RecordingTest.metadata());
            w.threads(RecordingTest.threads());
            w.modules(List.of());
            w.stats(RecordingTest.stats());
            try (RecordingWriter.ThreadRecords records = w.threadRecords(seq)) {
                for (WireRecord r : wire) records.add(RecordEncoder.encode(r));
            }
            w.commit();
        }
        try (Recording r = Recording.open(out)) {
            List<SampleRecord> samples = r.records(seq)
                    .filter(x -> x instanceof SampleRecord)
                    .map(x -> (SampleRecord) x)
                    .toList();
            assertEquals(
                    expectedTimes, samples.stream().map(SampleRecord::timeNs).toList());
            assertEquals(
                    expectedStacks,
                    samples.stream().map(s -> s.context().stackLength()).toList());
            assertTrue(samples.stream().noneMatch(s -> (s.flags() & Wire.SAMPLE_REPEAT) != 0));
            int[] sections = {0}, begunByARepeat = {0};
            r.forEachSection(SectionKind.RECORDS, (key, payload) -> {
                sections[0]++;
                int at = firstSample(payload);
                int size = Le.u32(MemorySegment.ofArray(payload), at);
                assertFalse(RepeatedSamples.isRepeat(payload, at, size), "section " + sections[0]);
                long time = Le.u64(MemorySegment.ofArray(payload), at + 16 + Wire.Sample.TIME_NS);
                if (repeatTimes.contains(time)) begunByARepeat[0]++;
            });
            assertTrue(sections[0] >= 4, sections[0] + " sections");
            assertTrue(begunByARepeat[0] >= 1, "no section began where a repeat was: the test proves nothing");
        }
    }

    /** The offset of the first sample in a RECORDS payload (after its thread prefix). */
    private static int firstSample(byte[] payload) {
        MemorySegment p = MemorySegment.ofArray(payload);
        int at = 8;
        while (Le.u16(p, at + Wire.RecordHeader.TYPE) != Wire.REC_SAMPLE) at += Le.u32(p, at);
        return at;
    }
}
