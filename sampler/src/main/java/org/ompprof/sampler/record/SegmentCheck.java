package org.ompprof.sampler.record;

import static org.ompprof.sampler.record.Le.u16;
import static org.ompprof.sampler.record.Le.u32;

import java.lang.foreign.MemorySegment;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RecordHeader;

/**
 * {@link RecordDecoder#problem(MemorySegment)} for one record read in place, as the drainer checks
 * each record in its ring: the same checks as the decoder's (a test holds them equal), read
 * through the segment with nothing allocated, since a buffer view made per record would cost the
 * drainer more than it saves. The decoder reads runs of records through a view instead.
 */
final class SegmentCheck {
    private static final int P = RecordHeader.SIZEOF;

    private SegmentCheck() {}

    static String problem(MemorySegment rec) {
        long len = rec.byteSize();
        if (len < RecordHeader.SIZEOF) return "record of " + len + " bytes is shorter than its header";
        long size = Integer.toUnsignedLong(u32(rec, RecordHeader.SIZE));
        int type = u16(rec, RecordHeader.TYPE);
        int version = u16(rec, RecordHeader.VERSION);
        if (size != len) return "record size " + size + " does not match its " + len + " bytes";
        if (size % 8 != 0) return "record size " + size + " is not a multiple of 8";
        if (type == Wire.REC_PAD || !Wire.isKnownRecordType(type)) return "unknown record type " + type;
        if (version != Wire.REC_VERSION)
            return "record version " + version + " (this ompprof reads " + Wire.REC_VERSION + ")";
        long needed = contentSize(type, rec);
        if (needed < 0)
            return RecordDecoder.typeName(type) + " record of " + len + " bytes is too short or has bad counts";
        if (Wire.align(needed) != size)
            return RecordDecoder.typeName(type) + " record size " + size + " does not match its contents (" + needed
                    + " bytes)";
        return null;
    }

    static long contentSize(int type, MemorySegment rec) {
        long fixed = P + RecordDecoder.fixedPayloadSize(type);
        if (rec.byteSize() < fixed) return -1;
        return switch (type) {
            case Wire.REC_SAMPLE -> sampleSize(rec);
            case Wire.REC_PARALLEL_BEGIN -> withContext(rec, fixed, P + Wire.ParallelBegin.CTX);
            case Wire.REC_TASK_CREATE -> withContext(rec, fixed, P + Wire.TaskCreate.CTX);
            case Wire.REC_MODULE -> moduleSize(rec);
            case Wire.REC_TASK_BATCH -> taskBatchSize(rec, fixed);
            case Wire.REC_TASK_BATCH_PACKED -> packedTaskBatchSize(rec, fixed);
            case Wire.REC_TARGET -> withContext(rec, fixed, P + Wire.Target.CTX);
            case Wire.REC_DEVICE_TRACE -> deviceTraceSize(rec, fixed);
            default -> fixed;
        };
    }

    private static long taskBatchSize(MemorySegment rec, long fixed) {
        long count = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatch.COUNT));
        if (count == 0 || count > Wire.MAX_TASK_BATCH) return -1;
        return fixed + count * Wire.TaskBatchEntry.SIZEOF;
    }

    private static long packedTaskBatchSize(MemorySegment rec, long fixed) {
        long count = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatchPacked.COUNT));
        long bytes = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatchPacked.BYTES));
        if (count == 0 || count > Wire.MAX_TASK_BATCH || bytes > TaskBatchPacking.maxBytes(count)) return -1;
        if (TaskBatchPacking.walk(rec, fixed, fixed + bytes, (int) count) != bytes) return -1;
        return fixed + bytes;
    }

    private static long deviceTraceSize(MemorySegment rec, long fixed) {
        long count = Integer.toUnsignedLong(u32(rec, P + Wire.DeviceTrace.COUNT));
        if (count == 0 || count > Wire.MAX_DEVICE_TRACE) return -1;
        return fixed + count * Wire.DeviceTraceEntry.SIZEOF;
    }

    private static long sampleSize(MemorySegment rec) {
        long tasks = Integer.toUnsignedLong(u32(rec, P + Wire.Sample.TASK_LEVELS));
        long parallels = Integer.toUnsignedLong(u32(rec, P + Wire.Sample.PARALLEL_LEVELS));
        if (tasks > Wire.MAX_LEVELS || parallels > Wire.MAX_LEVELS) return -1;
        return withContext(
                rec,
                P + Wire.Sample.SIZEOF + tasks * Wire.TaskLevel.SIZEOF + parallels * Wire.ParallelLevel.SIZEOF,
                P + Wire.Sample.CTX);
    }

    private static long moduleSize(MemorySegment rec) {
        long segments = Integer.toUnsignedLong(u32(rec, P + Wire.Module.SEGMENT_COUNT));
        long buildId = Integer.toUnsignedLong(u32(rec, P + Wire.Module.BUILD_ID_LEN));
        if (segments > Wire.MAX_SEGMENTS || buildId > Wire.MAX_BUILD_ID) return -1;
        return P
                + Wire.Module.SIZEOF
                + segments * Wire.Segment.SIZEOF
                + Integer.toUnsignedLong(u32(rec, P + Wire.Module.PATH_LEN))
                + Integer.toUnsignedLong(u32(rec, P + Wire.Module.IMAGE_LEN));
    }

    private static long withContext(MemorySegment rec, long before, long ctx) {
        long frames = Integer.toUnsignedLong(u32(rec, ctx + Wire.Context.FRAME_COUNT));
        int stop = u32(rec, ctx + Wire.Context.WALK_STOP);
        if (frames > Wire.MAX_WALK_FRAMES + 1
                || (stop & ~(0xff | Wire.WALK_CHECK)) != 0
                || (stop & 0xff) > Wire.WALK_TASK_EXIT) {
            return -1;
        }
        return before
                + frames * Wire.WalkedFrame.SIZEOF
                + Integer.toUnsignedLong(u32(rec, ctx + Wire.Context.STACK_LEN));
    }
}
