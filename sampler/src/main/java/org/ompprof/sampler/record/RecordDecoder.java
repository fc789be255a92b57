package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RecordHeader;

/**
 * Wire bytes to {@link WireRecord}s. Every length in a record is checked against the bytes
 * present before it is used, so random or truncated input ends in a
 * {@link MalformedRecordException}, never in a huge allocation or an out-of-bounds read.
 */
public final class RecordDecoder {
    private static final int P = RecordHeader.SIZEOF;

    private RecordDecoder() {}

    /**
     * Why {@code rec} (exactly one record's bytes) is not a valid record, or null if it is.
     * Allocates one small view: the drainer checks only the records it reads during the run
     * (samples, threads, modules), the rest are checked as the recording is written.
     */
    public static String problem(MemorySegment rec) {
        return problem(WireBytes.ofRecord(rec));
    }

    /**
     * Records lying in an array (a spool block), checked and timed in place: one view of the array, where a view per
     * record would cost more than the check.
     */
    public static final class InArray {
        private final byte[] array;
        private final WireBytes run;

        public InArray(byte[] array) {
            this.array = array;
            this.run = WireBytes.ofRun(MemorySegment.ofArray(array));
        }

        /** Whether this reads {@code a}. */
        public boolean reads(byte[] a) {
            return a == array;
        }

        /** As {@link RecordDecoder#problem(MemorySegment)}, for the {@code size} bytes at {@code at}. */
        public String problem(int at, int size) {
            return RecordDecoder.problem(run.record(at, size));
        }

        /** The time that starts the payload of the record at {@code at} (every record's does). */
        public long time(int at) {
            return run.u64(at + P);
        }
    }

    /** As {@link #problem(MemorySegment)}, for a record read through a view of its run. */
    static String problem(WireBytes rec) {
        long len = rec.size();
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
        if (needed < 0) return typeName(type) + " record of " + len + " bytes is too short or has bad counts";
        if (Wire.align(needed) != size)
            return typeName(type) + " record size " + size + " does not match its contents (" + needed + " bytes)";
        return null;
    }

    /**
     * Decodes exactly one record; throws {@link MalformedRecordException} if it is not valid, or if it is a repeated
     * sample (which only its run of records can resolve: {@link #iterate}).
     */
    public static WireRecord decode(MemorySegment rec) {
        return new RepeatedSamples().resolve(decode(WireBytes.ofRecord(rec), false));
    }

    /**
     * @param shareSampleStacks a sample's stack snapshot is a slice of {@code rec} rather than a
     *     copy: only for memory nobody overwrites (a recording's section, not a ring), and only
     *     where samples are consumed and dropped, since a slice keeps its whole array alive
     */
    private static WireRecord decode(WireBytes rec, boolean shareSampleStacks) {
        String problem = problem(rec);
        if (problem != null) throw new MalformedRecordException(problem);
        int seq = u32(rec, RecordHeader.THREAD_SEQ);
        return switch (u16(rec, RecordHeader.TYPE)) {
            case Wire.REC_SAMPLE -> sample(rec, seq, shareSampleStacks);
            case Wire.REC_THREAD_BEGIN -> threadBegin(rec, seq);
            case Wire.REC_THREAD_END -> new ThreadEnd(seq, u64(rec, P + Wire.ThreadEnd.TIME_NS));
            case Wire.REC_PARALLEL_BEGIN -> parallelBegin(rec, seq);
            case Wire.REC_PARALLEL_END -> parallelEnd(rec, seq);
            case Wire.REC_IMPLICIT_TASK -> implicitTask(rec, seq);
            case Wire.REC_TASK_CREATE -> taskCreate(rec, seq);
            case Wire.REC_TASK_SCHEDULE -> taskSchedule(rec, seq);
            case Wire.REC_SYNC_REGION -> syncRegion(rec, seq);
            case Wire.REC_MUTEX -> mutex(rec, seq);
            case Wire.REC_CONTROL_TOOL -> controlTool(rec, seq);
            case Wire.REC_MODULE -> module(rec, seq);
            case Wire.REC_MODULE_UNLOAD ->
                new ModuleUnload(
                        seq, u64(rec, P + Wire.ModuleUnload.TIME_NS), u64(rec, P + Wire.ModuleUnload.MODULE_ID));
            case Wire.REC_AGENT_INFO -> agentInfo(rec, seq);
            case Wire.REC_AGENT_END ->
                new AgentEnd(
                        seq,
                        u64(rec, P + Wire.AgentEnd.TIME_NS),
                        u64(rec, P + Wire.AgentEnd.TIMERS_FAILED),
                        u64(rec, P + Wire.AgentEnd.THREADS_SEEN));
            case Wire.REC_WORK -> work(rec, seq);
            case Wire.REC_MASKED -> masked(rec, seq);
            case Wire.REC_TASK_BATCH -> taskBatch(rec, seq);
            case Wire.REC_TASK_BATCH_PACKED -> packedTaskBatch(rec, seq);
            case Wire.REC_REGION_BATCH_PACKED -> packedRegionBatch(rec, seq);
            case Wire.REC_DEVICE -> device(rec, seq);
            case Wire.REC_TARGET -> target(rec, seq);
            case Wire.REC_MUTEX_SITE -> mutexSite(rec, seq);
            case Wire.REC_TARGET_SUBMIT -> targetSubmit(rec, seq);
            case Wire.REC_TARGET_DATA_OP -> targetDataOp(rec, seq);
            case Wire.REC_DEVICE_TRACE -> deviceTrace(rec, seq);
            case Wire.REC_DEVICE_CLOCK ->
                new DeviceClock(
                        seq,
                        u64(rec, P + Wire.DeviceClock.HOST_NS),
                        u64(rec, P + Wire.DeviceClock.DEVICE_NS),
                        i32(rec, P + Wire.DeviceClock.DEVICE_NUM));
            case Wire.REC_MPI -> mpi(rec, seq);
            default -> throw new MalformedRecordException("unknown record type"); // problem() rules this out
        };
    }

    /**
     * Decodes the consecutive records filling {@code buf} (no PAD records). Each step advances
     * by a validated size of at least 16 bytes, so this always ends.
     *
     * @throws MalformedRecordException naming the byte offset in {@code buf} of the bad record
     */
    public static void decodeAll(MemorySegment buf, Consumer<? super WireRecord> sink) {
        decodeAll(buf, sink, false);
    }

    /** As {@link #decodeAll(MemorySegment, Consumer)}; see {@link #decode(WireBytes, boolean)} for sharing. */
    public static void decodeAll(MemorySegment buf, Consumer<? super WireRecord> sink, boolean shareSampleStacks) {
        WireBytes bytes = WireBytes.ofRun(buf);
        RepeatedSamples repeats = new RepeatedSamples();
        long off = 0;
        while (off < buf.byteSize()) {
            WireBytes rec = record(bytes, off);
            try {
                sink.accept(repeats.resolve(decode(rec, shareSampleStacks)));
            } catch (MalformedRecordException e) {
                throw new MalformedRecordException(e.getMessage() + " at byte " + off);
            }
            off += rec.size();
        }
    }

    /**
     * The consecutive records filling {@code buf}, decoded one at a time as they are asked for,
     * so that a record's bytes are read while they are still in the cache.
     *
     * @throws MalformedRecordException from {@code next()}, naming the byte offset in {@code buf}
     */
    public static Iterator<WireRecord> iterate(MemorySegment buf, boolean shareSampleStacks) {
        return iterate(buf, shareSampleStacks, type -> true);
    }

    /**
     * As {@link #iterate(MemorySegment, boolean)} for the records whose type {@code types} accepts; the others are
     * skipped undecoded.
     */
    public static Iterator<WireRecord> iterate(MemorySegment buf, boolean shareSampleStacks, IntPredicate types) {
        WireBytes bytes = WireBytes.ofRun(buf);
        RepeatedSamples repeats = new RepeatedSamples();
        return new Iterator<>() {
            private long off;
            private WireRecord next;

            @Override
            public boolean hasNext() {
                while (next == null && off < buf.byteSize()) {
                    try {
                        long size = recordSize(bytes, off);
                        if (types.test(bytes.u16(off + RecordHeader.TYPE)))
                            next = repeats.resolve(decode(bytes.record(off, size), shareSampleStacks));
                        off += size; // a record skipped is neither checked nor allocated
                    } catch (MalformedRecordException e) {
                        throw new MalformedRecordException(e.getMessage() + " at byte " + off);
                    }
                }
                return next != null;
            }

            @Override
            public WireRecord next() {
                if (!hasNext()) throw new NoSuchElementException();
                WireRecord r = next;
                next = null;
                return r;
            }
        };
    }

    /**
     * The record starting at {@code off} of {@code buf}, bounded by its size field and by the
     * bytes present.
     */
    public static MemorySegment slice(MemorySegment buf, long off) {
        long left = buf.byteSize() - off;
        if (left < RecordHeader.SIZEOF) throw new MalformedRecordException("truncated record header at byte " + off);
        long size = Integer.toUnsignedLong(Le.u32(buf, off + RecordHeader.SIZE));
        if (size < RecordHeader.SIZEOF || size > left) {
            throw new MalformedRecordException(
                    "record size " + size + " at byte " + off + " exceeds the " + left + " bytes left");
        }
        return buf.asSlice(off, size);
    }

    /** As {@link #slice}, over the bytes of a run of records. */
    private static WireBytes record(WireBytes buf, long off) {
        return buf.record(off, recordSize(buf, off));
    }

    /** The size of the record at {@code off}, checked as {@link #slice} checks it. */
    private static long recordSize(WireBytes buf, long off) {
        long left = buf.size() - off;
        if (left < RecordHeader.SIZEOF) throw new MalformedRecordException("truncated record header at byte " + off);
        long size = Integer.toUnsignedLong(buf.u32(off + RecordHeader.SIZE));
        if (size < RecordHeader.SIZEOF || size > left) {
            throw new MalformedRecordException(
                    "record size " + size + " at byte " + off + " exceeds the " + left + " bytes left");
        }
        return size;
    }

    /** The readable name of a record type. */
    public static String typeName(int type) {
        return switch (type) {
            case Wire.REC_PAD -> "pad";
            case Wire.REC_SAMPLE -> "sample";
            case Wire.REC_THREAD_BEGIN -> "thread_begin";
            case Wire.REC_THREAD_END -> "thread_end";
            case Wire.REC_PARALLEL_BEGIN -> "parallel_begin";
            case Wire.REC_PARALLEL_END -> "parallel_end";
            case Wire.REC_IMPLICIT_TASK -> "implicit_task";
            case Wire.REC_TASK_CREATE -> "task_create";
            case Wire.REC_TASK_SCHEDULE -> "task_schedule";
            case Wire.REC_SYNC_REGION -> "sync_region";
            case Wire.REC_MUTEX -> "mutex";
            case Wire.REC_CONTROL_TOOL -> "control_tool";
            case Wire.REC_MODULE -> "module";
            case Wire.REC_MODULE_UNLOAD -> "module_unload";
            case Wire.REC_AGENT_INFO -> "agent_info";
            case Wire.REC_AGENT_END -> "agent_end";
            case Wire.REC_WORK -> "work";
            case Wire.REC_MASKED -> "masked";
            case Wire.REC_TASK_BATCH -> "task_batch";
            case Wire.REC_DEVICE -> "device";
            case Wire.REC_TARGET -> "target";
            case Wire.REC_TARGET_SUBMIT -> "target_submit";
            case Wire.REC_TARGET_DATA_OP -> "target_data_op";
            case Wire.REC_DEVICE_TRACE -> "device_trace";
            case Wire.REC_DEVICE_CLOCK -> "device_clock";
            case Wire.REC_TASK_BATCH_PACKED -> "task_batch_packed";
            case Wire.REC_MPI -> "mpi";
            case Wire.REC_MUTEX_SITE -> "mutex_site";
            case Wire.REC_REGION_BATCH_PACKED -> "region_batch_packed";
            default -> "type " + type;
        };
    }

    /**
     * The unpadded byte count the record's own fields call for, or -1 when the record is too
     * short to hold its fixed part or a count is out of range.
     */
    static long contentSize(int type, WireBytes rec) {
        long fixed = P + fixedPayloadSize(type);
        if (rec.size() < fixed) return -1;
        return switch (type) {
            case Wire.REC_SAMPLE -> sampleSize(rec);
            case Wire.REC_PARALLEL_BEGIN -> withContext(rec, fixed, P + Wire.ParallelBegin.CTX);
            case Wire.REC_TASK_CREATE -> withContext(rec, fixed, P + Wire.TaskCreate.CTX);
            case Wire.REC_MODULE -> moduleSize(rec);
            case Wire.REC_TASK_BATCH -> taskBatchSize(rec, fixed);
            case Wire.REC_TASK_BATCH_PACKED -> packedBatchSize(rec, fixed, false);
            case Wire.REC_REGION_BATCH_PACKED -> packedBatchSize(rec, fixed, true);
            case Wire.REC_TARGET -> withContext(rec, fixed, P + Wire.Target.CTX);
            case Wire.REC_MUTEX_SITE -> withContext(rec, fixed, P + Wire.MutexSite.CTX);
            case Wire.REC_DEVICE_TRACE -> deviceTraceSize(rec, fixed);
            default -> fixed;
        };
    }

    static int fixedPayloadSize(int type) {
        return switch (type) {
            case Wire.REC_SAMPLE -> Wire.Sample.SIZEOF;
            case Wire.REC_THREAD_BEGIN -> Wire.ThreadBegin.SIZEOF;
            case Wire.REC_THREAD_END -> Wire.ThreadEnd.SIZEOF;
            case Wire.REC_PARALLEL_BEGIN -> Wire.ParallelBegin.SIZEOF;
            case Wire.REC_PARALLEL_END -> Wire.ParallelEnd.SIZEOF;
            case Wire.REC_IMPLICIT_TASK -> Wire.ImplicitTask.SIZEOF;
            case Wire.REC_TASK_CREATE -> Wire.TaskCreate.SIZEOF;
            case Wire.REC_TASK_SCHEDULE -> Wire.TaskSchedule.SIZEOF;
            case Wire.REC_SYNC_REGION -> Wire.SyncRegion.SIZEOF;
            case Wire.REC_MUTEX -> Wire.Mutex.SIZEOF;
            case Wire.REC_CONTROL_TOOL -> Wire.ControlTool.SIZEOF;
            case Wire.REC_MODULE -> Wire.Module.SIZEOF;
            case Wire.REC_MODULE_UNLOAD -> Wire.ModuleUnload.SIZEOF;
            case Wire.REC_AGENT_INFO -> Wire.AgentInfo.SIZEOF;
            case Wire.REC_AGENT_END -> Wire.AgentEnd.SIZEOF;
            case Wire.REC_WORK -> Wire.Work.SIZEOF;
            case Wire.REC_MASKED -> Wire.Masked.SIZEOF;
            case Wire.REC_TASK_BATCH -> Wire.TaskBatch.SIZEOF;
            case Wire.REC_DEVICE -> Wire.Device.SIZEOF;
            case Wire.REC_TARGET -> Wire.Target.SIZEOF;
            case Wire.REC_TARGET_SUBMIT -> Wire.TargetSubmit.SIZEOF;
            case Wire.REC_TARGET_DATA_OP -> Wire.TargetDataOp.SIZEOF;
            case Wire.REC_DEVICE_TRACE -> Wire.DeviceTrace.SIZEOF;
            case Wire.REC_DEVICE_CLOCK -> Wire.DeviceClock.SIZEOF;
            case Wire.REC_TASK_BATCH_PACKED -> Wire.TaskBatchPacked.SIZEOF;
            case Wire.REC_MPI -> Wire.Mpi.SIZEOF;
            case Wire.REC_MUTEX_SITE -> Wire.MutexSite.SIZEOF;
            case Wire.REC_REGION_BATCH_PACKED -> Wire.RegionBatchPacked.SIZEOF;
            default -> 0;
        };
    }

    private static long taskBatchSize(WireBytes rec, long fixed) {
        long count = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatch.COUNT));
        if (count == 0 || count > Wire.MAX_TASK_BATCH) return -1;
        return fixed + count * Wire.TaskBatchEntry.SIZEOF;
    }

    /**
     * The header's byte count, if the entries it holds take exactly that many bytes (a task batch's
     * and a region batch's count and bytes lie at the same places).
     */
    private static long packedBatchSize(WireBytes rec, long fixed, boolean regions) {
        long count = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatchPacked.COUNT));
        long bytes = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatchPacked.BYTES));
        if (count == 0 || count > Wire.MAX_TASK_BATCH || bytes > TaskBatchPacking.maxBytes(count, regions)) return -1;
        if (TaskBatchPacking.walk(rec.segment(), fixed, fixed + bytes, (int) count, regions) != bytes) return -1;
        return fixed + bytes;
    }

    private static long deviceTraceSize(WireBytes rec, long fixed) {
        long count = Integer.toUnsignedLong(u32(rec, P + Wire.DeviceTrace.COUNT));
        if (count == 0 || count > Wire.MAX_DEVICE_TRACE) return -1;
        return fixed + count * Wire.DeviceTraceEntry.SIZEOF;
    }

    private static long sampleSize(WireBytes rec) {
        long tasks = Integer.toUnsignedLong(u32(rec, P + Wire.Sample.TASK_LEVELS));
        long parallels = Integer.toUnsignedLong(u32(rec, P + Wire.Sample.PARALLEL_LEVELS));
        if (tasks > Wire.MAX_LEVELS || parallels > Wire.MAX_LEVELS) return -1;
        boolean repeat = (u32(rec, P + Wire.Sample.FLAGS) & Wire.SAMPLE_REPEAT) != 0;
        if (repeat
                && (tasks
                                | parallels
                                | u32(rec, P + Wire.Sample.CTX + Wire.Context.FRAME_COUNT)
                                | u32(rec, P + Wire.Sample.CTX + Wire.Context.STACK_LEN))
                        != 0) return -1; // a repeat carries nothing of its own but its time and weight
        long rbx = carries(rec, Wire.SAMPLE_RBX) ? Wire.RBX_BYTES : 0;
        long size = withContext(
                rec,
                P + Wire.Sample.SIZEOF + tasks * Wire.TaskLevel.SIZEOF + parallels * Wire.ParallelLevel.SIZEOF + rbx,
                P + Wire.Sample.CTX);
        if (size < 0 || !carries(rec, Wire.SAMPLE_UPPER)) return size;
        long upper = Wire.align(size);
        if (upper + Wire.UpperWindow.SIZEOF > rec.size()) return -1;
        return upper + Wire.UpperWindow.SIZEOF + Integer.toUnsignedLong(u32(rec, upper + Wire.UpperWindow.LEN));
    }

    /** Whether a sample record carries {@code part} (rbx before its snapshot, a second window after it). */
    private static boolean carries(WireBytes rec, int part) {
        return Wire.sampleCarries(u32(rec, P + Wire.Sample.FLAGS), part);
    }

    private static long moduleSize(WireBytes rec) {
        long segments = Integer.toUnsignedLong(u32(rec, P + Wire.Module.SEGMENT_COUNT));
        long buildId = Integer.toUnsignedLong(u32(rec, P + Wire.Module.BUILD_ID_LEN));
        if (segments > Wire.MAX_SEGMENTS || buildId > Wire.MAX_BUILD_ID) return -1;
        return P
                + Wire.Module.SIZEOF
                + segments * Wire.Segment.SIZEOF
                + Integer.toUnsignedLong(u32(rec, P + Wire.Module.PATH_LEN))
                + Integer.toUnsignedLong(u32(rec, P + Wire.Module.IMAGE_LEN));
    }

    /** {@code before} bytes, then the context's walked frames and snapshot; -1 when its walk is out of range. */
    private static long withContext(WireBytes rec, long before, long ctx) {
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

    private static SampleRecord sample(WireBytes rec, int seq, boolean shareStack) {
        long p = P;
        int tasks = u32(rec, p + Wire.Sample.TASK_LEVELS);
        int parallels = u32(rec, p + Wire.Sample.PARALLEL_LEVELS);
        long off = p + Wire.Sample.SIZEOF;
        List<TaskLevel> taskLevels = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++, off += Wire.TaskLevel.SIZEOF) taskLevels.add(taskLevel(rec, off));
        List<ParallelLevel> parallelLevels = new ArrayList<>(parallels);
        for (int i = 0; i < parallels; i++, off += Wire.ParallelLevel.SIZEOF) {
            parallelLevels.add(new ParallelLevel(
                    u64(rec, off + Wire.ParallelLevel.PARALLEL_ID),
                    u32(rec, off + Wire.ParallelLevel.TEAM_SIZE),
                    u32(rec, off + Wire.ParallelLevel.INFO_RESULT)));
        }
        return new SampleRecord(
                seq,
                u64(rec, p + Wire.Sample.TIME_NS),
                u64(rec, p + Wire.Sample.WEIGHT_NS),
                u32(rec, p + Wire.Sample.OS_TID),
                i32(rec, p + Wire.Sample.OMP_THREAD_NUM),
                u32(rec, p + Wire.Sample.STATE),
                u32(rec, p + Wire.Sample.FLAGS),
                u64(rec, p + Wire.Sample.WAIT_ID),
                taskLevels,
                parallelLevels,
                context(
                        rec,
                        p + Wire.Sample.CTX,
                        off,
                        shareStack,
                        carries(rec, Wire.SAMPLE_RBX),
                        carries(rec, Wire.SAMPLE_UPPER)));
    }

    private static TaskLevel taskLevel(WireBytes rec, long off) {
        return new TaskLevel(
                u64(rec, off + Wire.TaskLevel.EXIT_FRAME),
                u64(rec, off + Wire.TaskLevel.ENTER_FRAME),
                u32(rec, off + Wire.TaskLevel.EXIT_FRAME_FLAGS),
                u32(rec, off + Wire.TaskLevel.ENTER_FRAME_FLAGS),
                u32(rec, off + Wire.TaskLevel.TASK_FLAGS),
                i32(rec, off + Wire.TaskLevel.THREAD_NUM),
                u64(rec, off + Wire.TaskLevel.TASK_ID),
                u64(rec, off + Wire.TaskLevel.PARALLEL_ID),
                u32(rec, off + Wire.TaskLevel.INFO_RESULT));
    }

    /** The context at {@code ctx} whose walked frames start at {@code framesOff}; copies the snapshot unless shared. */
    private static Context context(WireBytes rec, long ctx, long framesOff, boolean share) {
        return context(rec, ctx, framesOff, share, false, false);
    }

    /**
     * The same, with rbx between the frames and the snapshot when {@code withRbx}, and a second window of the stack
     * after the snapshot when {@code withUpper}.
     */
    private static Context context(
            WireBytes rec, long ctx, long framesOff, boolean share, boolean withRbx, boolean withUpper) {
        Walk walk = walk(rec, ctx, framesOff);
        long after = framesOff + (long) walk.count() * Wire.WalkedFrame.SIZEOF;
        OptionalLong rbx = withRbx ? OptionalLong.of(u64(rec, after)) : OptionalLong.empty();
        long stackOff = after + (withRbx ? Wire.RBX_BYTES : 0);
        int len = u32(rec, ctx + Wire.Context.STACK_LEN);
        StackWindow upper = StackWindow.NONE;
        if (withUpper) {
            long at = Wire.align(stackOff + len);
            int upperLen = u32(rec, at + Wire.UpperWindow.LEN);
            long from = at + Wire.UpperWindow.SIZEOF;
            upper = new StackWindow(
                    u64(rec, at + Wire.UpperWindow.ADDR),
                    share ? rec.slice(from, upperLen) : copy(rec, from, upperLen));
        }
        return new Context(
                u64(rec, ctx + Wire.Context.RIP),
                u64(rec, ctx + Wire.Context.RSP),
                u64(rec, ctx + Wire.Context.RBP),
                u32(rec, ctx + Wire.Context.CTX_FLAGS),
                share ? rec.slice(stackOff, len) : copy(rec, stackOff, len),
                walk,
                rbx,
                upper);
    }

    private static Walk walk(WireBytes rec, long ctx, long off) {
        int frames = u32(rec, ctx + Wire.Context.FRAME_COUNT);
        int stop = u32(rec, ctx + Wire.Context.WALK_STOP);
        if (frames == 0 && stop == Wire.WALK_CONTINUE) return Walk.NONE;
        long[] pcs = new long[frames];
        long[] sps = new long[frames];
        for (int i = 0; i < frames; i++, off += Wire.WalkedFrame.SIZEOF) {
            pcs[i] = u64(rec, off + Wire.WalkedFrame.PC);
            sps[i] = u64(rec, off + Wire.WalkedFrame.SP);
        }
        return Walk.owning(pcs, sps, stop);
    }

    private static MemorySegment copy(WireBytes rec, long off, long len) {
        return MemorySegment.ofArray(rec.bytes(off, len)).asReadOnly();
    }

    private static ThreadBegin threadBegin(WireBytes rec, int seq) {
        return new ThreadBegin(
                seq,
                u64(rec, P + Wire.ThreadBegin.TIME_NS),
                u32(rec, P + Wire.ThreadBegin.OS_TID),
                u32(rec, P + Wire.ThreadBegin.THREAD_TYPE),
                u64(rec, P + Wire.ThreadBegin.STACK_LO),
                u64(rec, P + Wire.ThreadBegin.STACK_HI),
                u32(rec, P + Wire.ThreadBegin.SLOT));
    }

    private static ParallelBegin parallelBegin(WireBytes rec, int seq) {
        long p = P;
        return new ParallelBegin(
                seq,
                u64(rec, p + Wire.ParallelBegin.TIME_NS),
                u64(rec, p + Wire.ParallelBegin.PARALLEL_ID),
                u64(rec, p + Wire.ParallelBegin.PARENT_TASK_ID),
                u64(rec, p + Wire.ParallelBegin.CODEPTR_RA),
                u64(rec, p + Wire.ParallelBegin.ENC_EXIT_FRAME),
                u64(rec, p + Wire.ParallelBegin.ENC_ENTER_FRAME),
                u32(rec, p + Wire.ParallelBegin.REQUESTED_TEAM_SIZE),
                u32(rec, p + Wire.ParallelBegin.FLAGS),
                u64(rec, p + Wire.ParallelBegin.SHAPE),
                context(rec, p + Wire.ParallelBegin.CTX, p + Wire.ParallelBegin.SIZEOF, false));
    }

    private static ParallelEnd parallelEnd(WireBytes rec, int seq) {
        return new ParallelEnd(
                seq,
                u64(rec, P + Wire.ParallelEnd.TIME_NS),
                u64(rec, P + Wire.ParallelEnd.PARALLEL_ID),
                u64(rec, P + Wire.ParallelEnd.TASK_ID),
                u64(rec, P + Wire.ParallelEnd.CODEPTR_RA),
                u32(rec, P + Wire.ParallelEnd.FLAGS));
    }

    private static ImplicitTask implicitTask(WireBytes rec, int seq) {
        return new ImplicitTask(
                seq,
                u64(rec, P + Wire.ImplicitTask.TIME_NS),
                u64(rec, P + Wire.ImplicitTask.PARALLEL_ID),
                u64(rec, P + Wire.ImplicitTask.TASK_ID),
                u32(rec, P + Wire.ImplicitTask.ENDPOINT),
                u32(rec, P + Wire.ImplicitTask.ACTUAL_PARALLELISM),
                u32(rec, P + Wire.ImplicitTask.INDEX),
                u32(rec, P + Wire.ImplicitTask.FLAGS));
    }

    private static TaskCreate taskCreate(WireBytes rec, int seq) {
        long p = P;
        return new TaskCreate(
                seq,
                u64(rec, p + Wire.TaskCreate.TIME_NS),
                u64(rec, p + Wire.TaskCreate.PARENT_TASK_ID),
                u64(rec, p + Wire.TaskCreate.TASK_ID),
                u64(rec, p + Wire.TaskCreate.CODEPTR_RA),
                u64(rec, p + Wire.TaskCreate.ENC_EXIT_FRAME),
                u64(rec, p + Wire.TaskCreate.ENC_ENTER_FRAME),
                u32(rec, p + Wire.TaskCreate.FLAGS),
                u32(rec, p + Wire.TaskCreate.HAS_DEPENDENCES),
                u64(rec, p + Wire.TaskCreate.SHAPE),
                context(rec, p + Wire.TaskCreate.CTX, p + Wire.TaskCreate.SIZEOF, false));
    }

    private static TaskSchedule taskSchedule(WireBytes rec, int seq) {
        return new TaskSchedule(
                seq,
                u64(rec, P + Wire.TaskSchedule.TIME_NS),
                u64(rec, P + Wire.TaskSchedule.PRIOR_TASK_ID),
                u64(rec, P + Wire.TaskSchedule.NEXT_TASK_ID),
                u32(rec, P + Wire.TaskSchedule.PRIOR_STATUS));
    }

    private static SyncRegion syncRegion(WireBytes rec, int seq) {
        return new SyncRegion(
                seq,
                u64(rec, P + Wire.SyncRegion.TIME_NS),
                u64(rec, P + Wire.SyncRegion.PARALLEL_ID),
                u64(rec, P + Wire.SyncRegion.TASK_ID),
                u64(rec, P + Wire.SyncRegion.CODEPTR_RA),
                u32(rec, P + Wire.SyncRegion.KIND),
                u32(rec, P + Wire.SyncRegion.ENDPOINT),
                u32(rec, P + Wire.SyncRegion.IS_WAIT));
    }

    private static MutexEvent mutex(WireBytes rec, int seq) {
        return new MutexEvent(
                seq,
                u64(rec, P + Wire.Mutex.TIME_NS),
                u64(rec, P + Wire.Mutex.WAIT_ID),
                u64(rec, P + Wire.Mutex.CODEPTR_RA),
                u32(rec, P + Wire.Mutex.EVENT),
                u32(rec, P + Wire.Mutex.KIND),
                u32(rec, P + Wire.Mutex.HINT),
                u32(rec, P + Wire.Mutex.IMPL));
    }

    private static ControlTool controlTool(WireBytes rec, int seq) {
        return new ControlTool(
                seq,
                u64(rec, P + Wire.ControlTool.TIME_NS),
                u64(rec, P + Wire.ControlTool.MODIFIER),
                u64(rec, P + Wire.ControlTool.CODEPTR_RA),
                u32(rec, P + Wire.ControlTool.COMMAND));
    }

    private static WorkEvent work(WireBytes rec, int seq) {
        return new WorkEvent(
                seq,
                u64(rec, P + Wire.Work.TIME_NS),
                u64(rec, P + Wire.Work.PARALLEL_ID),
                u64(rec, P + Wire.Work.TASK_ID),
                u64(rec, P + Wire.Work.COUNT),
                u64(rec, P + Wire.Work.CODEPTR_RA),
                u32(rec, P + Wire.Work.WORK_TYPE),
                u32(rec, P + Wire.Work.ENDPOINT));
    }

    private static TaskBatch packedTaskBatch(WireBytes rec, int seq) {
        int count = u32(rec, P + Wire.TaskBatchPacked.COUNT); // count and bytes checked by problem()
        long bytes = Integer.toUnsignedLong(u32(rec, P + Wire.TaskBatchPacked.BYTES));
        long off = P + Wire.TaskBatchPacked.SIZEOF;
        return new TaskBatch(
                seq,
                u64(rec, P + Wire.TaskBatchPacked.TIME_NS),
                TaskBatchPacking.decode(
                        rec.segment(), off, off + bytes, count, u64(rec, P + Wire.TaskBatchPacked.BASE_TASK_ID)),
                true);
    }

    private static RegionBatch packedRegionBatch(WireBytes rec, int seq) {
        int count = u32(rec, P + Wire.RegionBatchPacked.COUNT); // count and bytes checked by problem()
        long bytes = Integer.toUnsignedLong(u32(rec, P + Wire.RegionBatchPacked.BYTES));
        long off = P + Wire.RegionBatchPacked.SIZEOF;
        return new RegionBatch(
                seq,
                u64(rec, P + Wire.RegionBatchPacked.TIME_NS),
                TaskBatchPacking.decodeRegions(
                        rec.segment(),
                        off,
                        off + bytes,
                        count,
                        u64(rec, P + Wire.RegionBatchPacked.BASE_PARALLEL_ID),
                        u64(rec, P + Wire.RegionBatchPacked.BASE_END_NS)));
    }

    private static TaskBatch taskBatch(WireBytes rec, int seq) {
        int count = u32(rec, P + Wire.TaskBatch.COUNT); // checked by problem()
        List<TaskBatch.Entry> entries = new ArrayList<>(count);
        for (long off = P + Wire.TaskBatch.SIZEOF, i = 0; i < count; i++, off += Wire.TaskBatchEntry.SIZEOF) {
            entries.add(new TaskBatch.Entry(
                    u64(rec, off + Wire.TaskBatchEntry.TASK_ID),
                    u64(rec, off + Wire.TaskBatchEntry.PARENT_TASK_ID),
                    u64(rec, off + Wire.TaskBatchEntry.SHAPE)));
        }
        return new TaskBatch(seq, u64(rec, P + Wire.TaskBatch.TIME_NS), entries);
    }

    private static DeviceEvent device(WireBytes rec, int seq) {
        byte[] raw = rec.bytes(P + Wire.Device.TYPE, Wire.Device.SIZEOF_TYPE);
        int len = 0;
        while (len < raw.length - 1 && raw[len] != 0) len++; // the agent always ends it with a NUL
        // runtimes name device types in ASCII ("generic-64bit"); anything else is damage, shown as '?'
        for (int i = 0; i < len; i++) if (raw[i] < 0x20 || raw[i] > 0x7e) raw[i] = '?';
        return new DeviceEvent(
                seq,
                u64(rec, P + Wire.Device.TIME_NS),
                i32(rec, P + Wire.Device.DEVICE_NUM),
                u32(rec, P + Wire.Device.EVENT),
                u32(rec, P + Wire.Device.FLAGS),
                new String(raw, 0, len, StandardCharsets.US_ASCII),
                u64(rec, P + Wire.Device.MODULE_ID),
                u64(rec, P + Wire.Device.HOST_ADDR),
                u64(rec, P + Wire.Device.DEVICE_ADDR),
                u64(rec, P + Wire.Device.BYTES));
    }

    private static TargetEvent target(WireBytes rec, int seq) {
        long p = P;
        return new TargetEvent(
                seq,
                u64(rec, p + Wire.Target.TIME_NS),
                u64(rec, p + Wire.Target.TARGET_ID),
                u64(rec, p + Wire.Target.TASK_ID),
                u64(rec, p + Wire.Target.CODEPTR_RA),
                u64(rec, p + Wire.Target.ENC_EXIT_FRAME),
                u64(rec, p + Wire.Target.ENC_ENTER_FRAME),
                i32(rec, p + Wire.Target.DEVICE_NUM),
                u32(rec, p + Wire.Target.KIND),
                u32(rec, p + Wire.Target.ENDPOINT),
                context(rec, p + Wire.Target.CTX, p + Wire.Target.SIZEOF, false));
    }

    private static MutexSite mutexSite(WireBytes rec, int seq) {
        long p = P;
        return new MutexSite(
                seq,
                u64(rec, p + Wire.MutexSite.TIME_NS),
                u64(rec, p + Wire.MutexSite.WAIT_ID),
                u64(rec, p + Wire.MutexSite.TASK_ID),
                u64(rec, p + Wire.MutexSite.CODEPTR_RA),
                u64(rec, p + Wire.MutexSite.ENC_EXIT_FRAME),
                u64(rec, p + Wire.MutexSite.SHAPE),
                context(rec, p + Wire.MutexSite.CTX, p + Wire.MutexSite.SIZEOF, false));
    }

    private static TargetSubmit targetSubmit(WireBytes rec, int seq) {
        return new TargetSubmit(
                seq,
                u64(rec, P + Wire.TargetSubmit.TIME_NS),
                u64(rec, P + Wire.TargetSubmit.TARGET_ID),
                u64(rec, P + Wire.TargetSubmit.HOST_OP_ID),
                u32(rec, P + Wire.TargetSubmit.REQUESTED_NUM_TEAMS),
                u32(rec, P + Wire.TargetSubmit.ENDPOINT));
    }

    private static TargetDataOp targetDataOp(WireBytes rec, int seq) {
        long p = P;
        return new TargetDataOp(
                seq,
                u64(rec, p + Wire.TargetDataOp.TIME_NS),
                u64(rec, p + Wire.TargetDataOp.TARGET_ID),
                u64(rec, p + Wire.TargetDataOp.HOST_OP_ID),
                u64(rec, p + Wire.TargetDataOp.SRC_ADDR),
                u64(rec, p + Wire.TargetDataOp.DEST_ADDR),
                u64(rec, p + Wire.TargetDataOp.BYTES),
                u64(rec, p + Wire.TargetDataOp.CODEPTR_RA),
                i32(rec, p + Wire.TargetDataOp.SRC_DEVICE_NUM),
                i32(rec, p + Wire.TargetDataOp.DEST_DEVICE_NUM),
                u32(rec, p + Wire.TargetDataOp.OPTYPE),
                u32(rec, p + Wire.TargetDataOp.ENDPOINT));
    }

    private static DeviceTrace deviceTrace(WireBytes rec, int seq) {
        int count = u32(rec, P + Wire.DeviceTrace.COUNT); // checked by problem()
        List<DeviceTrace.Entry> entries = new ArrayList<>(count);
        for (long off = P + Wire.DeviceTrace.SIZEOF, i = 0; i < count; i++, off += Wire.DeviceTraceEntry.SIZEOF) {
            entries.add(new DeviceTrace.Entry(
                    u64(rec, off + Wire.DeviceTraceEntry.START_NS),
                    u64(rec, off + Wire.DeviceTraceEntry.END_NS),
                    u64(rec, off + Wire.DeviceTraceEntry.TARGET_ID),
                    u64(rec, off + Wire.DeviceTraceEntry.HOST_OP_ID),
                    u64(rec, off + Wire.DeviceTraceEntry.BYTES),
                    u32(rec, off + Wire.DeviceTraceEntry.KIND),
                    u32(rec, off + Wire.DeviceTraceEntry.OPTYPE)));
        }
        return new DeviceTrace(
                seq, u64(rec, P + Wire.DeviceTrace.TIME_NS), i32(rec, P + Wire.DeviceTrace.DEVICE_NUM), entries);
    }

    private static MaskedEvent masked(WireBytes rec, int seq) {
        return new MaskedEvent(
                seq,
                u64(rec, P + Wire.Masked.TIME_NS),
                u64(rec, P + Wire.Masked.PARALLEL_ID),
                u64(rec, P + Wire.Masked.TASK_ID),
                u64(rec, P + Wire.Masked.CODEPTR_RA),
                u32(rec, P + Wire.Masked.ENDPOINT));
    }

    private static AgentInfo agentInfo(WireBytes rec, int seq) {
        return new AgentInfo(
                seq,
                u64(rec, P + Wire.AgentInfo.TIME_NS),
                u64(rec, P + Wire.AgentInfo.SAMPLE_PERIOD_NS),
                u32(rec, P + Wire.AgentInfo.PID),
                u32(rec, P + Wire.AgentInfo.OMPT_VERSION),
                u32(rec, P + Wire.AgentInfo.MODE),
                u32(rec, P + Wire.AgentInfo.RATE_HZ),
                u32(rec, P + Wire.AgentInfo.STACK_BYTES),
                u64(rec, P + Wire.AgentInfo.CALLBACKS_REGISTERED));
    }

    private static ModuleLoad module(WireBytes rec, int seq) {
        long p = P;
        int segmentCount = u32(rec, p + Wire.Module.SEGMENT_COUNT);
        long off = p + Wire.Module.SIZEOF;
        List<ModuleSegment> segments = new ArrayList<>(segmentCount);
        for (int i = 0; i < segmentCount; i++, off += Wire.Segment.SIZEOF) {
            segments.add(new ModuleSegment(
                    u64(rec, off + Wire.Segment.VADDR),
                    u64(rec, off + Wire.Segment.MEMSZ),
                    u64(rec, off + Wire.Segment.OFFSET),
                    u64(rec, off + Wire.Segment.FILESZ),
                    u32(rec, off + Wire.Segment.FLAGS)));
        }
        int pathLen = u32(rec, p + Wire.Module.PATH_LEN);
        String path = new String(rec.bytes(off, pathLen), StandardCharsets.UTF_8);
        MemorySegment image = copy(rec, off + pathLen, u32(rec, p + Wire.Module.IMAGE_LEN));
        byte[] buildId = rec.bytes(p + Wire.Module.BUILD_ID, u32(rec, p + Wire.Module.BUILD_ID_LEN));
        return new ModuleLoad(
                seq,
                u64(rec, p + Wire.Module.TIME_NS),
                u64(rec, p + Wire.Module.MODULE_ID),
                u64(rec, p + Wire.Module.LOAD_BIAS),
                u64(rec, p + Wire.Module.EH_FRAME_HDR),
                u64(rec, p + Wire.Module.DEV),
                u64(rec, p + Wire.Module.INO),
                u64(rec, p + Wire.Module.FILE_SIZE),
                u64(rec, p + Wire.Module.MTIME_NS),
                u32(rec, p + Wire.Module.FLAGS),
                i32(rec, p + Wire.Module.FD),
                segments,
                path,
                HexFormat.of().formatHex(buildId),
                image);
    }

    private static MpiEvent mpi(WireBytes rec, int seq) {
        return new MpiEvent(
                seq,
                u64(rec, P + Wire.Mpi.TIME_NS),
                u64(rec, P + Wire.Mpi.COMM),
                u64(rec, P + Wire.Mpi.BYTES),
                u64(rec, P + Wire.Mpi.SEQ),
                u64(rec, P + Wire.Mpi.REQUEST),
                i32(rec, P + Wire.Mpi.PEER),
                i32(rec, P + Wire.Mpi.SOURCE),
                i32(rec, P + Wire.Mpi.TAG),
                u32(rec, P + Wire.Mpi.COMM_SIZE),
                u32(rec, P + Wire.Mpi.COUNT),
                u16(rec, P + Wire.Mpi.CALL),
                u8(rec, P + Wire.Mpi.ENDPOINT),
                u8(rec, P + Wire.Mpi.FLAGS));
    }

    private static int u8(WireBytes rec, long off) {
        return rec.u8(off);
    }

    private static long u64(WireBytes rec, long off) {
        return rec.u64(off);
    }

    /** The 32 bits at {@code off}; use {@link Integer#toUnsignedLong} where the value is unsigned. */
    private static int u32(WireBytes rec, long off) {
        return rec.u32(off);
    }

    private static int i32(WireBytes rec, long off) {
        return rec.u32(off);
    }

    private static int u16(WireBytes rec, long off) {
        return rec.u16(off);
    }
}
