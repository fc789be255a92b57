package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The drainer's in-place check and the decoder's check through a view find the same problem in any bytes. */
class SegmentCheckTest {
    @Test
    void bothChecksAgreeOnRecordsAndTheirDamage() {
        Random rnd = new Random(1414);
        for (int i = 0; i < 20_000; i++) {
            byte[] rec = RecordEncoder.encode(TestRecords.random(rnd));
            if (i % 4 == 0) assertNull(SegmentCheck.problem(MemorySegment.ofArray(rec)), "a valid record");
            byte[] bad = switch (i % 4) {
                case 0 -> rec;
                case 1 -> Arrays.copyOf(rec, rnd.nextInt(rec.length + 1));
                case 2 -> flip(rec, rnd);
                default -> flip(flip(rec, rnd), rnd);
            };
            MemorySegment s = MemorySegment.ofArray(bad);
            assertEquals(SegmentCheck.problem(s), RecordDecoder.problem(WireBytes.ofRun(s)), "record " + i);
        }
    }

    private static byte[] flip(byte[] rec, Random rnd) {
        byte[] b = rec.clone();
        if (b.length > 0) b[rnd.nextInt(Math.min(b.length, 96))] ^= (byte) (1 << rnd.nextInt(8));
        return b;
    }
}
