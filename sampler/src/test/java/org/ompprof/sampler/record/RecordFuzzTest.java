package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing of ring records (with Jazzer): whatever a damaged agent or a hostile
 * program writes into the rings, the decoder ends in records or in one
 * {@link MalformedRecordException}, and a record it accepts encodes back to the same bytes'
 * meaning (the packed task batch's varints included).
 */
class RecordFuzzTest {
    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void records(byte[] bytes) {
        MemorySegment buf = MemorySegment.ofArray(bytes);
        try {
            RecordDecoder.decodeAll(buf, RecordFuzzTest::reencodes);
        } catch (MalformedRecordException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
        }
    }

    private static void reencodes(WireRecord r) {
        byte[] again = RecordEncoder.encode(r);
        assertNull(RecordDecoder.problem(MemorySegment.ofArray(again)), r.toString());
        WireRecord back = RecordDecoder.decode(MemorySegment.ofArray(again));
        assertEquals(r.getClass(), back.getClass());
        assertTrue(TestRecords.same(r, back), () -> r + "\n!=\n" + back);
    }
}
