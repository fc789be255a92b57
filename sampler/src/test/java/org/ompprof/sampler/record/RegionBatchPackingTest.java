package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.wire.Wire;

/** The packed region batch: the agent's bytes (the C test packs the same vector), its size, and broken batches. */
class RegionBatchPackingTest {
    /** native-sigprof/tests/task_pack_test.c, known_region_vector(): base 99, base end 5000. */
    private static final String AGENT_BYTES = "0f0eaaaa00000000000000" + "0800d00f" + "080003";

    private static final List<RegionBatch.Entry> AGENT_ENTRIES = List.of(
            new RegionBatch.Entry(100, 7, 0xaaaa, 5000),
            new RegionBatch.Entry(101, 7, 0xaaaa, 6000),
            new RegionBatch.Entry(102, 7, 0xaaaa, 5998));

    @Test
    void readsWhatTheAgentPacks() {
        byte[] packed = HexFormat.of().parseHex(AGENT_BYTES);
        RegionBatch b = (RegionBatch) RecordDecoder.decode(MemorySegment.ofArray(
                PackedBatchRecords.record(Wire.REC_REGION_BATCH_PACKED, 3, packed.length, 99, packed)));
        assertEquals(AGENT_ENTRIES, b.entries());
        assertEquals(Wire.REC_REGION_BATCH_PACKED, b.type());
        assertEquals(42, b.timeNs());
        assertEquals(AGENT_BYTES, HexFormat.of().formatHex(TaskBatchPacking.encodeRegions(AGENT_ENTRIES)));
    }

    /**
     * A time step's loops, as one master opens them: regions a few microseconds apart from three
     * sites, each under the same implicit task, now and then an id taken by another thread. The
     * two records each region took before (a same-shape ParallelBegin and a ParallelEnd) are 176
     * bytes.
     */
    @Test
    void aTimeStepTakesAboutFiveBytesARegion() {
        List<RegionBatch.Entry> entries = new ArrayList<>();
        Random rnd = new Random(5);
        long id = 5000;
        long end = 1_000_000_000L;
        for (int i = 0; i < Wire.MAX_TASK_BATCH; i++) {
            id += rnd.nextInt(10) == 0 ? 2 : 1;
            end += rnd.nextInt(1500, 12000);
            entries.add(new RegionBatch.Entry(id, 3, 0x1111 * (1 + i % 3), end));
        }
        byte[] packed = RecordEncoder.encode(new RegionBatch(1, 5, entries));
        double perRegion = (double) packed.length / entries.size();
        assertTrue(perRegion < 6, perRegion + " bytes a region, the record's headers and three new shapes included");
        assertEquals(entries, ((RegionBatch) RecordDecoder.decode(MemorySegment.ofArray(packed))).entries());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomBatchesRoundTrip(int seed) {
        Random rnd = new Random(seed);
        for (int i = 0; i < 500; i++) {
            RegionBatch b = new RegionBatch(
                    rnd.nextInt(1, 9), rnd.nextLong(1, Long.MAX_VALUE), TestRecords.packableRegions(rnd));
            byte[] bytes = RecordEncoder.encode(b);
            assertNull(RecordDecoder.problem(MemorySegment.ofArray(bytes)));
            assertEquals(b, RecordDecoder.decode(MemorySegment.ofArray(bytes)));
        }
    }

    @Test
    void brokenBatchesAreRejectedWithTheRecordNamed() {
        byte[] good = HexFormat.of().parseHex(AGENT_BYTES);
        assertNull(problem(3, good.length, good));
        assertBad(0, good.length, good); // no entries
        assertBad(65, good.length, good); // over the batch limit
        assertBad(4, good.length, good); // fewer entries than counted
        assertBad(2, good.length, good); // bytes left over
        assertBad(3, good.length - 1, good); // the last end cut off
        assertBad(1, 2, new byte[] {0x08, 0x00}); // a task's entry: no end
        assertBad(1, 3, new byte[] {0x00, 0x00, 0x00}); // a step of 0: ids must grow
        assertBad(1, 4, new byte[] {0x08, 0x00, (byte) 0x80, (byte) 0x80}); // an end's varint cut short
        String p = problem(0, 0, new byte[0]);
        assertTrue(p.contains("region_batch_packed"), p);
    }

    private static void assertBad(int count, int bytes, byte[] packed) {
        PackedBatchRecords.assertBad(Wire.REC_REGION_BATCH_PACKED, count, bytes, packed);
    }

    private static String problem(int count, int bytes, byte[] packed) {
        return PackedBatchRecords.problem(Wire.REC_REGION_BATCH_PACKED, count, bytes, packed);
    }
}
