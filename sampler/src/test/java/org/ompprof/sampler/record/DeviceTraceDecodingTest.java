package org.ompprof.sampler.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.sampler.wire.Wire;

/**
 * Device trace records as the agent writes them from completed OMPT trace buffers. No runtime on
 * this machine offers OMPT tracing (libomptarget 19 returns NULL for its entry points), so the
 * bytes here are laid out by hand, field by field, as ompprof_wire.h says: independent of
 * {@link RecordEncoder}.
 */
class DeviceTraceDecodingTest {
    private static final int HEADER = 16, PAYLOAD = 16, ENTRY = 48;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 128})
    void handLaidOutBatchDecodes(int count) {
        Random r = new Random(count);
        long[][] fields = new long[count][7];
        ByteBuffer b = record(Wire.REC_DEVICE_TRACE, PAYLOAD + count * ENTRY, 9);
        b.putLong(HEADER, 123_456_789L).putInt(HEADER + 8, 3).putInt(HEADER + 12, count);
        for (int i = 0; i < count; i++) {
            int off = HEADER + PAYLOAD + i * ENTRY;
            long start = r.nextLong(1L << 50);
            fields[i] = new long[] {
                start,
                start + r.nextInt(1_000_000),
                r.nextInt(1, 100),
                r.nextInt(1, 1000),
                r.nextInt(1 << 30),
                1 + r.nextInt(3),
                r.nextInt(7)
            };
            b.putLong(off, fields[i][0])
                    .putLong(off + 8, fields[i][1])
                    .putLong(off + 16, fields[i][2])
                    .putLong(off + 24, fields[i][3])
                    .putLong(off + 32, fields[i][4])
                    .putInt(off + 40, (int) fields[i][5])
                    .putInt(off + 44, (int) fields[i][6]);
        }
        DeviceTrace t = (DeviceTrace) RecordDecoder.decode(MemorySegment.ofArray(b.array()));
        assertEquals(9, t.threadSeq());
        assertEquals(123_456_789L, t.timeNs());
        assertEquals(3, t.deviceNum());
        assertEquals(count, t.entries().size());
        for (int i = 0; i < count; i++) {
            DeviceTrace.Entry e = t.entries().get(i);
            assertEquals(
                    List.of(
                            fields[i][0],
                            fields[i][1],
                            fields[i][2],
                            fields[i][3],
                            fields[i][4],
                            fields[i][5],
                            fields[i][6]),
                    List.of(e.startNs(), e.endNs(), e.targetId(), e.hostOpId(), e.bytes(), (long) e.kind(), (long)
                            e.optype()));
        }
    }

    @Test
    void emptyOversizedAndMiscountedBatchesAreRefused() {
        for (int[] claimedAndPresent :
                new int[][] {{0, 0}, {Wire.MAX_DEVICE_TRACE + 1, Wire.MAX_DEVICE_TRACE + 1}, {3, 2}, {2, 3}}) {
            ByteBuffer b = record(Wire.REC_DEVICE_TRACE, PAYLOAD + claimedAndPresent[1] * ENTRY, 1);
            b.putInt(HEADER + 12, claimedAndPresent[0]);
            String problem = RecordDecoder.problem(MemorySegment.ofArray(b.array()));
            assertTrue(problem != null && problem.startsWith("device_trace"), problem);
            assertThrows(MalformedRecordException.class, () -> RecordDecoder.decode(MemorySegment.ofArray(b.array())));
        }
    }

    @Test
    void clockPairDecodes() {
        ByteBuffer b = record(Wire.REC_DEVICE_CLOCK, 24, 4);
        b.putLong(HEADER, 5_000_000_123L).putLong(HEADER + 8, 77_000_000_456L).putInt(HEADER + 16, -1);
        assertEquals(
                new DeviceClock(4, 5_000_000_123L, 77_000_000_456L, -1),
                RecordDecoder.decode(MemorySegment.ofArray(b.array())));
    }

    private static ByteBuffer record(int type, int payload, int seq) {
        int size = HEADER + payload;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, size)
                .putShort(4, (short) type)
                .putShort(6, (short) Wire.REC_VERSION)
                .putInt(8, seq);
        return b;
    }
}
