package org.ompprof.sampler.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.record.RecordDecoder;
import org.ompprof.sampler.record.RecordEncoder;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.TestRecords;
import org.ompprof.sampler.wire.Wire;

class RingReaderTest {
    static final RegionLayout SMALL = new RegionLayout(2, 4096, 1024, Wire.MODE_WALL, 1000, 256);

    /** A run's records, by the sizes their headers give. */
    static List<MemorySegment> split(MemorySegment run) {
        List<MemorySegment> out = new ArrayList<>();
        for (long at = 0; at < run.byteSize(); ) {
            long size = Integer.toUnsignedLong(Le.u32(run, at + Wire.RecordHeader.SIZE));
            out.add(run.asSlice(at, size));
            at += size;
        }
        return out;
    }

    /**
     * What a sink saw: the records' bytes in order, split out of the runs it was handed, and the
     * inspected ones (samples), which must be the same records.
     */
    static class Collected implements RingSink {
        final List<byte[]> records = new ArrayList<>();
        final List<byte[]> inspected = new ArrayList<>();

        @Override
        public long inspected() {
            return RingSink.bit(Wire.REC_SAMPLE);
        }

        @Override
        public void record(MemorySegment rec) {
            inspected.add(rec.toArray(ValueLayout.JAVA_BYTE));
        }

        @Override
        public void run(int threadSeq, MemorySegment run, int count, long firstNs, long lastNs) {
            List<MemorySegment> split = split(run);
            assertEquals(count, split.size());
            for (MemorySegment rec : split) {
                assertEquals(threadSeq, Le.u32(rec, Wire.RecordHeader.THREAD_SEQ));
                records.add(rec.toArray(ValueLayout.JAVA_BYTE));
            }
            assertEquals(firstNs, Le.u64(split.getFirst(), Wire.RecordHeader.SIZEOF));
            assertEquals(lastNs, Le.u64(split.getLast(), Wire.RecordHeader.SIZEOF));
        }

        void sameRecordsInspected() {
            assertEquals(records.size(), inspected.size());
            for (int i = 0; i < records.size(); i++) assertArrayEquals(records.get(i), inspected.get(i));
        }

        long lastWaitId() {
            return ((SampleRecord) RecordDecoder.decode(MemorySegment.ofArray(records.getLast()))).waitId();
        }
    }

    static byte[] concat(List<byte[]> records) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        records.forEach(bytes::writeBytes);
        return bytes.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void interleavedWritesAndDrainsDeliverEverythingInOrder(int seed) {
        Random rnd = new Random(seed);
        try (Region region = Region.inMemory(SMALL)) {
            RingWriter producer = RingWriter.sampleRing(region, 1);
            RingReader reader = region.slots().get(1).sampleRing();
            Collected sink = new Collected();
            List<byte[]> written = new ArrayList<>();
            long dropped = 0;
            for (int i = 0; i < 5000; i++) {
                // now and then a block of records written at once, as the warm-up writes them
                List<byte[]> block = new ArrayList<>();
                for (int k = rnd.nextInt(4) == 0 ? 2 + rnd.nextInt(3) : 1; k > 0; k--)
                    block.add(RecordEncoder.encode(TestRecords.sample(3 + rnd.nextInt(2), i, rnd.nextInt(0, 600))));
                boolean fitted = block.size() == 1
                        ? producer.write(block.getFirst())
                        : producer.write(concat(block), block.size());
                if (fitted) written.addAll(block);
                else dropped += block.size();
                if (rnd.nextInt(6) == 0) reader.drain(sink);
            }
            reader.drain(sink);
            assertEquals(written.size(), sink.records.size());
            for (int i = 0; i < written.size(); i++) assertArrayEquals(written.get(i), sink.records.get(i));
            sink.sameRecordsInspected();
            assertEquals(0, reader.malformed());
            assertEquals(0, reader.pending());
            RingCounters c = region.slots().get(1).sampleCounters();
            assertEquals(written.size(), c.records());
            assertEquals(dropped, c.dropped());
            assertTrue(dropped > 0, "the test should fill the ring sometimes");
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void concurrentProducerAndConsumer() throws Exception {
        try (Region region = Region.inMemory(SMALL)) {
            RingWriter producer = RingWriter.sampleRing(region, 0);
            RingReader reader = region.slots().get(0).sampleRing();
            int n = 200_000;
            long[] writtenIds = new long[n];
            int[] count = {0};
            Thread t = new Thread(() -> {
                Random rnd = new Random(99);
                for (int i = 0; i < n; i++) {
                    if (producer.write(RecordEncoder.encode(TestRecords.sample(1, i, rnd.nextInt(0, 300)))))
                        writtenIds[count[0]++] = i;
                }
            });
            List<Long> seen = new ArrayList<>();
            t.start();
            Collected sink = new Collected() {
                @Override
                public void record(MemorySegment rec) {
                    long id = Le.u64(rec, 16 + Wire.Sample.WAIT_ID);
                    long stackLen = Le.u32(rec, 16 + Wire.Sample.CTX + Wire.Context.STACK_LEN);
                    long first = stackLen > 0 ? rec.get(ValueLayout.JAVA_BYTE, 16 + Wire.Sample.SIZEOF) : (byte) id;
                    if ((byte) first != (byte) id) throw new AssertionError("torn record " + id);
                    seen.add(id);
                }
            };
            while (t.isAlive()) reader.drain(sink);
            t.join();
            reader.drain(sink);
            assertEquals(count[0], seen.size());
            for (int i = 0; i < seen.size(); i++) assertEquals(writtenIds[i], seen.get(i));
            assertEquals(count[0], sink.records.size(), "the runs hold the same records");
            assertEquals(0, reader.malformed());
        }
    }

    @Test
    void malformedRecordSkipsWhatIsAvailableAndTheRingRecovers() {
        try (Region region = Region.inMemory(SMALL)) {
            RingWriter producer = RingWriter.sampleRing(region, 0);
            RingReader reader = region.slots().get(0).sampleRing();
            Collected sink = new Collected();
            producer.write(RecordEncoder.encode(TestRecords.sample(1, 1, 16)));
            byte[] bad = RecordEncoder.encode(TestRecords.sample(1, 2, 16));
            Le.put16(MemorySegment.ofArray(bad), Wire.RecordHeader.TYPE, 77);
            producer.writeRaw(bad);
            producer.write(RecordEncoder.encode(TestRecords.sample(1, 3, 16)));
            reader.drain(sink);
            assertEquals(1, sink.records.size(), "the record before the bad one arrives, the rest is skipped");
            assertEquals(1, reader.malformed());
            assertTrue(reader.lastProblem().contains("unknown record type 77"), reader.lastProblem());
            assertEquals(0, reader.pending());
            producer.write(RecordEncoder.encode(TestRecords.sample(1, 4, 16)));
            reader.drain(sink);
            assertEquals(2, sink.records.size());
            assertEquals(4, sink.lastWaitId());
            sink.sameRecordsInspected();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {31, 32, 33, 34})
    void garbageNeverDerailsTheReader(int seed) {
        Random rnd = new Random(seed);
        try (Region region = Region.inMemory(SMALL)) {
            RingWriter producer = RingWriter.eventRing(region, 0);
            RingReader reader = region.slots().get(0).eventRing();
            Collected sink = new Collected();
            int good = 0;
            for (int i = 0; i < 2000; i++) {
                if (rnd.nextInt(10) == 0) {
                    byte[] junk = new byte[8 * rnd.nextInt(1, 20)];
                    rnd.nextBytes(junk);
                    producer.writeRaw(junk);
                    reader.drain(sink);
                } else if (producer.write(RecordEncoder.encode(TestRecords.sample(1, i, rnd.nextInt(0, 100))))) {
                    good++;
                }
                if (rnd.nextBoolean()) reader.drain(sink);
            }
            reader.drain(sink);
            assertTrue(reader.malformed() > 0);
            assertTrue(sink.records.size() > good / 2, sink.records.size() + " of " + good);
            for (byte[] r : sink.records) assertEquals(null, RecordDecoder.problem(MemorySegment.ofArray(r)));
        }
    }

    @Test
    void impossiblePositionsAreResynchronized() {
        try (Region region = Region.inMemory(SMALL)) {
            long base = SMALL.slotOffset(0);
            MemorySegment s = region.segment();
            s.set(ValueLayout.JAVA_LONG, base + Wire.SlotHeader.SAMPLE_PROD + Wire.RingProd.WRITE_POS, 1L << 40);
            RingReader reader = region.slots().get(0).sampleRing();
            reader.drain(new Collected());
            assertEquals(1, reader.malformed());
            assertEquals(0, reader.pending());
        }
    }

    @Test
    void endedSlotIsFreedOnlyWhenDrained() {
        try (Region region = Region.inMemory(SMALL)) {
            Slot slot = region.slots().get(1);
            long state = SMALL.slotOffset(1) + Wire.SlotHeader.STATE;
            RingWriter.eventRing(region, 1).write(RecordEncoder.encode(TestRecords.sample(2, 1, 0)));
            region.segment().set(ValueLayout.JAVA_INT, state, Wire.SLOT_ENDED);
            assertFalse(slot.freeIfEndedAndDrained());
            slot.eventRing().drain(new Collected());
            assertTrue(slot.freeIfEndedAndDrained());
            assertEquals(Wire.SLOT_FREE, slot.state());
            assertFalse(slot.freeIfEndedAndDrained());
        }
    }
}
