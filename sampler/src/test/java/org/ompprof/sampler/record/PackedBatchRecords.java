package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import org.ompprof.sampler.wire.Wire;

/**
 * Packed task and region batch records built around given entry bytes, with a header's count and byte count as
 * given (right or wrong), for the packing tests: time 42, thread 1, a region batch's base end 5000.
 */
final class PackedBatchRecords {
    private static final int P = Wire.RecordHeader.SIZEOF;

    private PackedBatchRecords() {}

    /** @param type {@code Wire.REC_TASK_BATCH_PACKED} or {@code Wire.REC_REGION_BATCH_PACKED} */
    static byte[] record(int type, int count, int bytes, long baseId, byte[] packed) {
        boolean regions = type == Wire.REC_REGION_BATCH_PACKED;
        int head = regions ? Wire.RegionBatchPacked.SIZEOF : Wire.TaskBatchPacked.SIZEOF;
        int size = (int) Wire.align(P + head + packed.length);
        MemorySegment s = MemorySegment.ofArray(new byte[size]);
        Le.put32(s, Wire.RecordHeader.SIZE, size);
        Le.put16(s, Wire.RecordHeader.TYPE, type);
        Le.put16(s, Wire.RecordHeader.VERSION, Wire.REC_VERSION);
        Le.put32(s, Wire.RecordHeader.THREAD_SEQ, 1);
        // the two heads share their first fields' places
        Le.put64(s, P + Wire.TaskBatchPacked.TIME_NS, 42);
        Le.put32(s, P + Wire.TaskBatchPacked.COUNT, count);
        Le.put32(s, P + Wire.TaskBatchPacked.BYTES, bytes);
        Le.put64(s, P + Wire.TaskBatchPacked.BASE_TASK_ID, baseId);
        if (regions) Le.put64(s, P + Wire.RegionBatchPacked.BASE_END_NS, 5000);
        MemorySegment.copy(MemorySegment.ofArray(packed), 0, s, P + head, packed.length);
        return (byte[]) s.heapBase().orElseThrow();
    }

    static String problem(int type, int count, int bytes, byte[] packed) {
        return RecordDecoder.problem(MemorySegment.ofArray(record(type, count, bytes, 1, packed)));
    }

    /** The record is refused, by the check and by the decoder alike. */
    static void assertBad(int type, int count, int bytes, byte[] packed) {
        assertNotNull(
                problem(type, count, bytes, packed),
                count + " entries in " + bytes + " bytes: " + HexFormat.of().formatHex(packed));
        byte[] rec = record(type, count, bytes, 1, packed);
        assertThrows(MalformedRecordException.class, () -> RecordDecoder.decode(MemorySegment.ofArray(rec)));
    }
}
