package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

/** The packed task batch: the agent's bytes (the C test packs the same vector), its size, and broken batches. */
class TaskBatchPackingTest {
    /** native-sigprof/tests/task_pack_test.c, known_vector(): base 99. */
    private static final String AGENT_BYTES =
            "0f0eaaaa000000000000" + "1700bbbb000000000000" + "0900" + "a80c03" + "0a00";

    private static final List<TaskBatch.Entry> AGENT_ENTRIES = List.of(
            new TaskBatch.Entry(100, 7, 0xaaaa),
            new TaskBatch.Entry(102, 7, 0xbbbb),
            new TaskBatch.Entry(103, 7, 0xaaaa),
            new TaskBatch.Entry(300, 5, 0xaaaa),
            new TaskBatch.Entry(301, 5, 0));

    @Test
    void readsWhatTheAgentPacks() {
        byte[] packed = HexFormat.of().parseHex(AGENT_BYTES);
        TaskBatch b = (TaskBatch) RecordDecoder.decode(MemorySegment.ofArray(
                PackedBatchRecords.record(Wire.REC_TASK_BATCH_PACKED, 5, packed.length, 99, packed)));
        assertEquals(AGENT_ENTRIES, b.entries());
        assertTrue(b.packed());
        assertEquals(Wire.REC_TASK_BATCH_PACKED, b.type());
        assertEquals(AGENT_BYTES, HexFormat.of().formatHex(TaskBatchPacking.encode(AGENT_ENTRIES)));
    }

    /**
     * A recursion's creations from one thread, as fib.c makes them: two sites, each reached
     * directly or from inside a taskwait (four shapes), siblings under one parent, the parent
     * mostly the task just created.
     */
    @Test
    void aRecursionTakesAboutThreeBytesATask() {
        List<TaskBatch.Entry> entries = new ArrayList<>();
        Random rnd = new Random(3);
        long id = 1000;
        long parent = 990;
        for (int pair = 0; pair < 32; pair++) {
            int variant = rnd.nextInt(3) == 0 ? 2 : 0;
            entries.add(new TaskBatch.Entry(id += 1, parent, 0x1111 + variant));
            entries.add(new TaskBatch.Entry(id += 1, parent, 0x2222 + variant));
            parent = rnd.nextInt(8) == 0 ? parent - 200 : id - rnd.nextInt(2);
        }
        byte[] packed = RecordEncoder.encode(new TaskBatch(1, 5, entries, true));
        byte[] plain = RecordEncoder.encode(new TaskBatch(1, 5, entries, false));
        double perTask = (double) packed.length / entries.size();
        assertTrue(perTask < 3.5, perTask + " bytes a task, the record's headers and its four new shapes included");
        assertTrue(plain.length > 7 * packed.length, plain.length + " plain vs " + packed.length + " packed");
        assertEquals(entries, ((TaskBatch) RecordDecoder.decode(MemorySegment.ofArray(packed))).entries());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomBatchesRoundTrip(int seed) {
        Random rnd = new Random(seed);
        for (int i = 0; i < 500; i++) {
            TaskBatch b = new TaskBatch(
                    rnd.nextInt(1, 9), rnd.nextLong(1, Long.MAX_VALUE), TestRecords.packableEntries(rnd), true);
            byte[] bytes = RecordEncoder.encode(b);
            assertNull(RecordDecoder.problem(MemorySegment.ofArray(bytes)));
            TaskBatch decoded = (TaskBatch) RecordDecoder.decode(MemorySegment.ofArray(bytes));
            assertEquals(b, decoded);
            assertEquals(b.hashCode(), decoded.hashCode());
            assertEquals(sunk(b), sunk(decoded)); // decoded: from its arrays; b: from its entry list
            assertEquals(b.entries(), sunk(decoded));
            assertThrows(
                    UnsupportedOperationException.class,
                    () -> decoded.entries().set(0, b.entries().getFirst()));
        }
    }

    private static List<TaskBatch.Entry> sunk(TaskBatch b) {
        List<TaskBatch.Entry> out = new ArrayList<>();
        b.forEachEntry((task, parent, shape) -> out.add(new TaskBatch.Entry(task, parent, shape)));
        return out;
    }

    @Test
    void onlyGrowingIdsPack() {
        assertThrows(
                IllegalArgumentException.class,
                () -> TaskBatchPacking.encode(List.of(new TaskBatch.Entry(5, 1, 1), new TaskBatch.Entry(5, 1, 1))));
        assertThrows(
                IllegalArgumentException.class,
                () -> TaskBatchPacking.encode(List.of(new TaskBatch.Entry(5, 1, 1), new TaskBatch.Entry(4, 1, 1))));
        assertThrows(
                IllegalArgumentException.class,
                () -> TaskBatchPacking.encode(
                        List.of(new TaskBatch.Entry(5, 1, 1), new TaskBatch.Entry(5 + (1L << 61), 1, 1))));
    }

    @Test
    void brokenBatchesAreRejectedWithTheRecordNamed() {
        byte[] good = HexFormat.of().parseHex(AGENT_BYTES);
        assertNull(problem(5, good.length, good));
        assertBad(0, good.length, good); // no entries
        assertBad(65, good.length, good); // over the batch limit
        assertBad(6, good.length, good); // fewer entries than counted
        assertBad(4, good.length, good); // bytes left over
        assertBad(5, good.length + 1, good); // the byte count overruns the entries
        assertBad(5, 5000, good); // the byte count overruns the record
        assertBad(1, 2, new byte[] {0x00, 0x00}); // a step of 0: ids must grow
        assertBad(1, 2, new byte[] {0x03, 0x00}); // the same, naming a recent shape
        assertBad(1, 1, new byte[] {(byte) 0x84}); // a varint cut short
        assertBad(1, 11, new byte[] {(byte) 0x84, -1, -1, -1, -1, -1, -1, -1, -1, 0x7f, 0x00}); // over 64 bits
        assertBad(1, 6, new byte[] {0x0f, 0x00, 1, 2, 3, 4}); // a new shape cut short
        String p = problem(0, 0, new byte[0]);
        assertTrue(p.contains("task_batch_packed"), p);
    }

    private static void assertBad(int count, int bytes, byte[] packed) {
        PackedBatchRecords.assertBad(Wire.REC_TASK_BATCH_PACKED, count, bytes, packed);
    }

    private static String problem(int count, int bytes, byte[] packed) {
        return PackedBatchRecords.problem(Wire.REC_TASK_BATCH_PACKED, count, bytes, packed);
    }
}
