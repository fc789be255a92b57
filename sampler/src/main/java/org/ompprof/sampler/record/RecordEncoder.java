package org.ompprof.sampler.record;

import static org.ompprof.sampler.record.Le.put16;
import static org.ompprof.sampler.record.Le.put32;
import static org.ompprof.sampler.record.Le.put64;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RecordHeader;

/**
 * {@link WireRecord}s to wire bytes exactly as the agent lays them out: the inverse of
 * {@link RecordDecoder}. The recorder itself never encodes (it keeps the agent's bytes); this
 * serves producers in tests and tools that synthesize recordings.
 */
public final class RecordEncoder {
    private static final int P = RecordHeader.SIZEOF;

    private RecordEncoder() {}

    public static byte[] encode(WireRecord r) {
        return switch (r) {
            case SampleRecord s -> sample(s);
            case ThreadBegin t -> threadBegin(t);
            case ThreadEnd t -> fixed(t, Wire.ThreadEnd.SIZEOF);
            case ParallelBegin pb -> parallelBegin(pb);
            case ParallelEnd pe -> parallelEnd(pe);
            case ImplicitTask it -> implicitTask(it);
            case TaskCreate tc -> taskCreate(tc);
            case TaskSchedule ts -> taskSchedule(ts);
            case SyncRegion sr -> syncRegion(sr);
            case MutexEvent m -> mutex(m);
            case MutexSite m -> mutexSite(m);
            case ControlTool c -> controlTool(c);
            case ModuleLoad m -> module(m);
            case ModuleUnload u -> moduleUnload(u);
            case AgentInfo a -> agentInfo(a);
            case AgentEnd a -> agentEnd(a);
            case WorkEvent w -> work(w);
            case MaskedEvent m -> masked(m);
            case TaskBatch b -> b.packed() ? packedTaskBatch(b) : taskBatch(b);
            case RegionBatch b -> packedRegionBatch(b);
            case DeviceEvent d -> device(d);
            case TargetEvent t -> target(t);
            case TargetSubmit t -> targetSubmit(t);
            case TargetDataOp t -> targetDataOp(t);
            case DeviceTrace t -> deviceTrace(t);
            case DeviceClock c -> deviceClock(c);
            case MpiEvent m -> mpi(m);
        };
    }

    /** A PAD record of {@code size} bytes (at least 8, a multiple of 8). */
    public static byte[] pad(int size) {
        byte[] b = new byte[size];
        MemorySegment s = MemorySegment.ofArray(b);
        put32(s, RecordHeader.SIZE, size);
        put16(s, RecordHeader.TYPE, Wire.REC_PAD);
        put16(s, RecordHeader.VERSION, Wire.REC_VERSION);
        return b;
    }

    /** A zeroed record of {@code contentSize} bytes (padded to 8) with its header and time filled in. */
    private static MemorySegment start(WireRecord r, long contentSize) {
        long size = Wire.align(contentSize);
        MemorySegment s = MemorySegment.ofArray(new byte[Math.toIntExact(size)]);
        put32(s, RecordHeader.SIZE, (int) size);
        put16(s, RecordHeader.TYPE, r.type());
        put16(s, RecordHeader.VERSION, Wire.REC_VERSION);
        put32(s, RecordHeader.THREAD_SEQ, r.threadSeq());
        put64(s, P, r.timeNs()); // every payload starts with time_ns
        return s;
    }

    private static byte[] fixed(WireRecord r, int payloadSize) {
        return bytes(start(r, P + payloadSize));
    }

    private static byte[] bytes(MemorySegment s) {
        return (byte[]) s.heapBase().orElseThrow();
    }

    /** The context at {@code ctx}, its walked frames from {@code off} and its snapshot after them. */
    private static void context(MemorySegment s, long ctx, long off, Context c) {
        context(s, ctx, off, c, false, false);
    }

    /**
     * The same, with the context's rbx (0 if it has none) between the frames and the snapshot when {@code withRbx},
     * and its second window of the stack after the snapshot when {@code withUpper}.
     */
    private static void context(MemorySegment s, long ctx, long off, Context c, boolean withRbx, boolean withUpper) {
        put64(s, ctx + Wire.Context.RIP, c.rip());
        put64(s, ctx + Wire.Context.RSP, c.rsp());
        put64(s, ctx + Wire.Context.RBP, c.rbp());
        put32(s, ctx + Wire.Context.STACK_LEN, c.stackLength());
        put32(s, ctx + Wire.Context.CTX_FLAGS, c.flags());
        Walk w = c.walk();
        put32(s, ctx + Wire.Context.FRAME_COUNT, w.count());
        put32(s, ctx + Wire.Context.WALK_STOP, w.stop());
        for (int i = 0; i < w.count(); i++, off += Wire.WalkedFrame.SIZEOF) {
            put64(s, off + Wire.WalkedFrame.PC, w.pc(i));
            put64(s, off + Wire.WalkedFrame.SP, w.sp(i));
        }
        if (withRbx) {
            put64(s, off, c.rbx().orElse(0));
            off += Wire.RBX_BYTES;
        }
        MemorySegment.copy(c.stack(), 0, s, off, c.stackLength());
        if (withUpper) {
            long at = Wire.align(off + c.stackLength());
            put64(s, at + Wire.UpperWindow.ADDR, c.upper().address());
            put32(s, at + Wire.UpperWindow.LEN, c.upper().length());
            MemorySegment.copy(
                    c.upper().bytes(),
                    0,
                    s,
                    at + Wire.UpperWindow.SIZEOF,
                    c.upper().length());
        }
    }

    /** Bytes a context adds after its record's fixed part: walked frames and snapshot. */
    private static long tail(Context c) {
        return (long) c.walk().count() * Wire.WalkedFrame.SIZEOF + c.stackLength();
    }

    private static byte[] sample(SampleRecord r) {
        long levels = (long) r.taskLevels().size() * Wire.TaskLevel.SIZEOF
                + (long) r.parallelLevels().size() * Wire.ParallelLevel.SIZEOF;
        boolean rbx = Wire.sampleCarries(r.flags(), Wire.SAMPLE_RBX),
                upper = Wire.sampleCarries(r.flags(), Wire.SAMPLE_UPPER);
        long size = P + Wire.Sample.SIZEOF + levels + tail(r.context()) + (rbx ? Wire.RBX_BYTES : 0);
        if (upper)
            size = Wire.align(size)
                    + Wire.UpperWindow.SIZEOF
                    + r.context().upper().length();
        MemorySegment s = start(r, size);
        put64(s, P + Wire.Sample.WEIGHT_NS, r.weightNs());
        put32(s, P + Wire.Sample.OS_TID, r.osTid());
        put32(s, P + Wire.Sample.OMP_THREAD_NUM, r.ompThreadNum());
        put32(s, P + Wire.Sample.STATE, r.state());
        put32(s, P + Wire.Sample.FLAGS, r.flags());
        put64(s, P + Wire.Sample.WAIT_ID, r.waitId());
        put32(s, P + Wire.Sample.TASK_LEVELS, r.taskLevels().size());
        put32(s, P + Wire.Sample.PARALLEL_LEVELS, r.parallelLevels().size());
        long off = P + Wire.Sample.SIZEOF;
        for (TaskLevel t : r.taskLevels()) {
            taskLevel(s, off, t);
            off += Wire.TaskLevel.SIZEOF;
        }
        for (ParallelLevel l : r.parallelLevels()) {
            put64(s, off + Wire.ParallelLevel.PARALLEL_ID, l.parallelId());
            put32(s, off + Wire.ParallelLevel.TEAM_SIZE, l.teamSize());
            put32(s, off + Wire.ParallelLevel.INFO_RESULT, l.infoResult());
            off += Wire.ParallelLevel.SIZEOF;
        }
        context(s, P + Wire.Sample.CTX, off, r.context(), rbx, upper);
        return bytes(s);
    }

    private static void taskLevel(MemorySegment s, long off, TaskLevel t) {
        put64(s, off + Wire.TaskLevel.EXIT_FRAME, t.exitFrame());
        put64(s, off + Wire.TaskLevel.ENTER_FRAME, t.enterFrame());
        put32(s, off + Wire.TaskLevel.EXIT_FRAME_FLAGS, t.exitFrameFlags());
        put32(s, off + Wire.TaskLevel.ENTER_FRAME_FLAGS, t.enterFrameFlags());
        put32(s, off + Wire.TaskLevel.TASK_FLAGS, t.taskFlags());
        put32(s, off + Wire.TaskLevel.THREAD_NUM, t.threadNum());
        put64(s, off + Wire.TaskLevel.TASK_ID, t.taskId());
        put64(s, off + Wire.TaskLevel.PARALLEL_ID, t.parallelId());
        put32(s, off + Wire.TaskLevel.INFO_RESULT, t.infoResult());
    }

    private static byte[] threadBegin(ThreadBegin r) {
        MemorySegment s = start(r, P + Wire.ThreadBegin.SIZEOF);
        put32(s, P + Wire.ThreadBegin.OS_TID, r.osTid());
        put32(s, P + Wire.ThreadBegin.THREAD_TYPE, r.threadType());
        put64(s, P + Wire.ThreadBegin.STACK_LO, r.stackLo());
        put64(s, P + Wire.ThreadBegin.STACK_HI, r.stackHi());
        put32(s, P + Wire.ThreadBegin.SLOT, r.slot());
        return bytes(s);
    }

    private static byte[] parallelBegin(ParallelBegin r) {
        MemorySegment s = start(r, P + Wire.ParallelBegin.SIZEOF + tail(r.context()));
        put64(s, P + Wire.ParallelBegin.PARALLEL_ID, r.parallelId());
        put64(s, P + Wire.ParallelBegin.PARENT_TASK_ID, r.parentTaskId());
        put64(s, P + Wire.ParallelBegin.CODEPTR_RA, r.codeptrRa());
        put64(s, P + Wire.ParallelBegin.ENC_EXIT_FRAME, r.encExitFrame());
        put64(s, P + Wire.ParallelBegin.ENC_ENTER_FRAME, r.encEnterFrame());
        put32(s, P + Wire.ParallelBegin.REQUESTED_TEAM_SIZE, r.requestedTeamSize());
        put32(s, P + Wire.ParallelBegin.FLAGS, r.flags());
        put64(s, P + Wire.ParallelBegin.SHAPE, r.shape());
        context(s, P + Wire.ParallelBegin.CTX, P + Wire.ParallelBegin.SIZEOF, r.context());
        return bytes(s);
    }

    private static byte[] parallelEnd(ParallelEnd r) {
        MemorySegment s = start(r, P + Wire.ParallelEnd.SIZEOF);
        put64(s, P + Wire.ParallelEnd.PARALLEL_ID, r.parallelId());
        put64(s, P + Wire.ParallelEnd.TASK_ID, r.taskId());
        put64(s, P + Wire.ParallelEnd.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.ParallelEnd.FLAGS, r.flags());
        return bytes(s);
    }

    private static byte[] implicitTask(ImplicitTask r) {
        MemorySegment s = start(r, P + Wire.ImplicitTask.SIZEOF);
        put64(s, P + Wire.ImplicitTask.PARALLEL_ID, r.parallelId());
        put64(s, P + Wire.ImplicitTask.TASK_ID, r.taskId());
        put32(s, P + Wire.ImplicitTask.ENDPOINT, r.endpoint());
        put32(s, P + Wire.ImplicitTask.ACTUAL_PARALLELISM, r.actualParallelism());
        put32(s, P + Wire.ImplicitTask.INDEX, r.index());
        put32(s, P + Wire.ImplicitTask.FLAGS, r.flags());
        return bytes(s);
    }

    private static byte[] taskCreate(TaskCreate r) {
        MemorySegment s = start(r, P + Wire.TaskCreate.SIZEOF + tail(r.context()));
        put64(s, P + Wire.TaskCreate.PARENT_TASK_ID, r.parentTaskId());
        put64(s, P + Wire.TaskCreate.TASK_ID, r.taskId());
        put64(s, P + Wire.TaskCreate.CODEPTR_RA, r.codeptrRa());
        put64(s, P + Wire.TaskCreate.ENC_EXIT_FRAME, r.encExitFrame());
        put64(s, P + Wire.TaskCreate.ENC_ENTER_FRAME, r.encEnterFrame());
        put32(s, P + Wire.TaskCreate.FLAGS, r.flags());
        put32(s, P + Wire.TaskCreate.HAS_DEPENDENCES, r.hasDependences());
        put64(s, P + Wire.TaskCreate.SHAPE, r.shape());
        context(s, P + Wire.TaskCreate.CTX, P + Wire.TaskCreate.SIZEOF, r.context());
        return bytes(s);
    }

    private static byte[] taskSchedule(TaskSchedule r) {
        MemorySegment s = start(r, P + Wire.TaskSchedule.SIZEOF);
        put64(s, P + Wire.TaskSchedule.PRIOR_TASK_ID, r.priorTaskId());
        put64(s, P + Wire.TaskSchedule.NEXT_TASK_ID, r.nextTaskId());
        put32(s, P + Wire.TaskSchedule.PRIOR_STATUS, r.priorStatus());
        return bytes(s);
    }

    private static byte[] syncRegion(SyncRegion r) {
        MemorySegment s = start(r, P + Wire.SyncRegion.SIZEOF);
        put64(s, P + Wire.SyncRegion.PARALLEL_ID, r.parallelId());
        put64(s, P + Wire.SyncRegion.TASK_ID, r.taskId());
        put64(s, P + Wire.SyncRegion.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.SyncRegion.KIND, r.kind());
        put32(s, P + Wire.SyncRegion.ENDPOINT, r.endpoint());
        put32(s, P + Wire.SyncRegion.IS_WAIT, r.isWait());
        return bytes(s);
    }

    private static byte[] mutex(MutexEvent r) {
        MemorySegment s = start(r, P + Wire.Mutex.SIZEOF);
        put64(s, P + Wire.Mutex.WAIT_ID, r.waitId());
        put64(s, P + Wire.Mutex.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.Mutex.EVENT, r.event());
        put32(s, P + Wire.Mutex.KIND, r.kind());
        put32(s, P + Wire.Mutex.HINT, r.hint());
        put32(s, P + Wire.Mutex.IMPL, r.impl());
        return bytes(s);
    }

    private static byte[] controlTool(ControlTool r) {
        MemorySegment s = start(r, P + Wire.ControlTool.SIZEOF);
        put64(s, P + Wire.ControlTool.MODIFIER, r.modifier());
        put64(s, P + Wire.ControlTool.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.ControlTool.COMMAND, r.command());
        return bytes(s);
    }

    private static byte[] module(ModuleLoad r) {
        byte[] path = r.path().getBytes(StandardCharsets.UTF_8);
        byte[] buildId = HexFormat.of().parseHex(r.buildId());
        if (buildId.length > Wire.MAX_BUILD_ID)
            throw new IllegalArgumentException("build id longer than " + Wire.MAX_BUILD_ID);
        long segments = (long) r.segments().size() * Wire.Segment.SIZEOF;
        MemorySegment s = start(
                r, P + Wire.Module.SIZEOF + segments + path.length + r.image().byteSize());
        put64(s, P + Wire.Module.MODULE_ID, r.moduleId());
        put64(s, P + Wire.Module.LOAD_BIAS, r.loadBias());
        put64(s, P + Wire.Module.EH_FRAME_HDR, r.ehFrameHdr());
        put64(s, P + Wire.Module.DEV, r.dev());
        put64(s, P + Wire.Module.INO, r.ino());
        put64(s, P + Wire.Module.FILE_SIZE, r.fileSize());
        put64(s, P + Wire.Module.MTIME_NS, r.mtimeNs());
        put32(s, P + Wire.Module.FLAGS, r.flags());
        put32(s, P + Wire.Module.FD, r.fd());
        put32(s, P + Wire.Module.SEGMENT_COUNT, r.segments().size());
        put32(s, P + Wire.Module.PATH_LEN, path.length);
        put32(s, P + Wire.Module.IMAGE_LEN, (int) r.image().byteSize());
        put32(s, P + Wire.Module.BUILD_ID_LEN, buildId.length);
        MemorySegment.copy(MemorySegment.ofArray(buildId), 0, s, P + Wire.Module.BUILD_ID, buildId.length);
        long off = P + Wire.Module.SIZEOF;
        for (ModuleSegment g : r.segments()) {
            put64(s, off + Wire.Segment.VADDR, g.vaddr());
            put64(s, off + Wire.Segment.MEMSZ, g.memSize());
            put64(s, off + Wire.Segment.OFFSET, g.offset());
            put64(s, off + Wire.Segment.FILESZ, g.fileSize());
            put32(s, off + Wire.Segment.FLAGS, g.flags());
            off += Wire.Segment.SIZEOF;
        }
        MemorySegment.copy(MemorySegment.ofArray(path), 0, s, off, path.length);
        MemorySegment.copy(r.image(), 0, s, off + path.length, r.image().byteSize());
        return bytes(s);
    }

    private static byte[] moduleUnload(ModuleUnload r) {
        MemorySegment s = start(r, P + Wire.ModuleUnload.SIZEOF);
        put64(s, P + Wire.ModuleUnload.MODULE_ID, r.moduleId());
        return bytes(s);
    }

    private static byte[] agentInfo(AgentInfo r) {
        MemorySegment s = start(r, P + Wire.AgentInfo.SIZEOF);
        put64(s, P + Wire.AgentInfo.SAMPLE_PERIOD_NS, r.samplePeriodNs());
        put32(s, P + Wire.AgentInfo.PID, r.pid());
        put32(s, P + Wire.AgentInfo.OMPT_VERSION, r.omptVersion());
        put32(s, P + Wire.AgentInfo.MODE, r.mode());
        put32(s, P + Wire.AgentInfo.RATE_HZ, r.rateHz());
        put32(s, P + Wire.AgentInfo.STACK_BYTES, r.stackBytes());
        put64(s, P + Wire.AgentInfo.CALLBACKS_REGISTERED, r.callbacksRegistered());
        return bytes(s);
    }

    private static byte[] agentEnd(AgentEnd r) {
        MemorySegment s = start(r, P + Wire.AgentEnd.SIZEOF);
        put64(s, P + Wire.AgentEnd.TIMERS_FAILED, r.timersFailed());
        put64(s, P + Wire.AgentEnd.THREADS_SEEN, r.threadsSeen());
        return bytes(s);
    }

    private static byte[] work(WorkEvent r) {
        MemorySegment s = start(r, P + Wire.Work.SIZEOF);
        put64(s, P + Wire.Work.PARALLEL_ID, r.parallelId());
        put64(s, P + Wire.Work.TASK_ID, r.taskId());
        put64(s, P + Wire.Work.COUNT, r.count());
        put64(s, P + Wire.Work.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.Work.WORK_TYPE, r.workType());
        put32(s, P + Wire.Work.ENDPOINT, r.endpoint());
        return bytes(s);
    }

    private static byte[] packedTaskBatch(TaskBatch r) {
        byte[] packed = TaskBatchPacking.encode(r.entries());
        MemorySegment s = start(r, P + Wire.TaskBatchPacked.SIZEOF + (long) packed.length);
        put32(s, P + Wire.TaskBatchPacked.COUNT, r.entries().size());
        put32(s, P + Wire.TaskBatchPacked.BYTES, packed.length);
        put64(s, P + Wire.TaskBatchPacked.BASE_TASK_ID, TaskBatchPacking.baseTaskId(r.entries()));
        MemorySegment.copy(MemorySegment.ofArray(packed), 0, s, P + Wire.TaskBatchPacked.SIZEOF, packed.length);
        return bytes(s);
    }

    private static byte[] packedRegionBatch(RegionBatch r) {
        byte[] packed = TaskBatchPacking.encodeRegions(r.entries());
        MemorySegment s = start(r, P + Wire.RegionBatchPacked.SIZEOF + (long) packed.length);
        put32(s, P + Wire.RegionBatchPacked.COUNT, r.entries().size());
        put32(s, P + Wire.RegionBatchPacked.BYTES, packed.length);
        put64(s, P + Wire.RegionBatchPacked.BASE_PARALLEL_ID, TaskBatchPacking.baseParallelId(r.entries()));
        put64(s, P + Wire.RegionBatchPacked.BASE_END_NS, r.entries().getFirst().endNs());
        MemorySegment.copy(MemorySegment.ofArray(packed), 0, s, P + Wire.RegionBatchPacked.SIZEOF, packed.length);
        return bytes(s);
    }

    private static byte[] taskBatch(TaskBatch r) {
        MemorySegment s =
                start(r, P + Wire.TaskBatch.SIZEOF + (long) r.entries().size() * Wire.TaskBatchEntry.SIZEOF);
        put32(s, P + Wire.TaskBatch.COUNT, r.entries().size());
        long off = P + Wire.TaskBatch.SIZEOF;
        for (TaskBatch.Entry e : r.entries()) {
            put64(s, off + Wire.TaskBatchEntry.TASK_ID, e.taskId());
            put64(s, off + Wire.TaskBatchEntry.PARENT_TASK_ID, e.parentTaskId());
            put64(s, off + Wire.TaskBatchEntry.SHAPE, e.shape());
            off += Wire.TaskBatchEntry.SIZEOF;
        }
        return bytes(s);
    }

    private static byte[] masked(MaskedEvent r) {
        MemorySegment s = start(r, P + Wire.Masked.SIZEOF);
        put64(s, P + Wire.Masked.PARALLEL_ID, r.parallelId());
        put64(s, P + Wire.Masked.TASK_ID, r.taskId());
        put64(s, P + Wire.Masked.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.Masked.ENDPOINT, r.endpoint());
        return bytes(s);
    }

    private static byte[] device(DeviceEvent r) {
        MemorySegment s = start(r, P + Wire.Device.SIZEOF);
        put64(s, P + Wire.Device.MODULE_ID, r.moduleId());
        put64(s, P + Wire.Device.HOST_ADDR, r.hostAddr());
        put64(s, P + Wire.Device.DEVICE_ADDR, r.deviceAddr());
        put64(s, P + Wire.Device.BYTES, r.bytes());
        put32(s, P + Wire.Device.DEVICE_NUM, r.deviceNum());
        put32(s, P + Wire.Device.EVENT, r.event());
        put32(s, P + Wire.Device.FLAGS, r.flags());
        byte[] type = r.deviceType().getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(
                type,
                0,
                s,
                java.lang.foreign.ValueLayout.JAVA_BYTE,
                P + Wire.Device.TYPE,
                Math.min(type.length, Wire.Device.SIZEOF_TYPE - 1));
        return bytes(s);
    }

    private static byte[] target(TargetEvent r) {
        MemorySegment s = start(r, P + Wire.Target.SIZEOF + tail(r.context()));
        put64(s, P + Wire.Target.TARGET_ID, r.targetId());
        put64(s, P + Wire.Target.TASK_ID, r.taskId());
        put64(s, P + Wire.Target.CODEPTR_RA, r.codeptrRa());
        put64(s, P + Wire.Target.ENC_EXIT_FRAME, r.encExitFrame());
        put64(s, P + Wire.Target.ENC_ENTER_FRAME, r.encEnterFrame());
        put32(s, P + Wire.Target.DEVICE_NUM, r.deviceNum());
        put32(s, P + Wire.Target.KIND, r.kind());
        put32(s, P + Wire.Target.ENDPOINT, r.endpoint());
        context(s, P + Wire.Target.CTX, P + Wire.Target.SIZEOF, r.context());
        return bytes(s);
    }

    private static byte[] mutexSite(MutexSite r) {
        MemorySegment s = start(r, P + Wire.MutexSite.SIZEOF + tail(r.context()));
        put64(s, P + Wire.MutexSite.WAIT_ID, r.waitId());
        put64(s, P + Wire.MutexSite.TASK_ID, r.taskId());
        put64(s, P + Wire.MutexSite.CODEPTR_RA, r.codeptrRa());
        put64(s, P + Wire.MutexSite.ENC_EXIT_FRAME, r.encExitFrame());
        put64(s, P + Wire.MutexSite.SHAPE, r.shape());
        context(s, P + Wire.MutexSite.CTX, P + Wire.MutexSite.SIZEOF, r.context());
        return bytes(s);
    }

    private static byte[] targetSubmit(TargetSubmit r) {
        MemorySegment s = start(r, P + Wire.TargetSubmit.SIZEOF);
        put64(s, P + Wire.TargetSubmit.TARGET_ID, r.targetId());
        put64(s, P + Wire.TargetSubmit.HOST_OP_ID, r.hostOpId());
        put32(s, P + Wire.TargetSubmit.REQUESTED_NUM_TEAMS, r.requestedNumTeams());
        put32(s, P + Wire.TargetSubmit.ENDPOINT, r.endpoint());
        return bytes(s);
    }

    private static byte[] targetDataOp(TargetDataOp r) {
        MemorySegment s = start(r, P + Wire.TargetDataOp.SIZEOF);
        put64(s, P + Wire.TargetDataOp.TARGET_ID, r.targetId());
        put64(s, P + Wire.TargetDataOp.HOST_OP_ID, r.hostOpId());
        put64(s, P + Wire.TargetDataOp.SRC_ADDR, r.srcAddr());
        put64(s, P + Wire.TargetDataOp.DEST_ADDR, r.destAddr());
        put64(s, P + Wire.TargetDataOp.BYTES, r.bytes());
        put64(s, P + Wire.TargetDataOp.CODEPTR_RA, r.codeptrRa());
        put32(s, P + Wire.TargetDataOp.SRC_DEVICE_NUM, r.srcDeviceNum());
        put32(s, P + Wire.TargetDataOp.DEST_DEVICE_NUM, r.destDeviceNum());
        put32(s, P + Wire.TargetDataOp.OPTYPE, r.optype());
        put32(s, P + Wire.TargetDataOp.ENDPOINT, r.endpoint());
        return bytes(s);
    }

    private static byte[] deviceTrace(DeviceTrace r) {
        MemorySegment s =
                start(r, P + Wire.DeviceTrace.SIZEOF + (long) r.entries().size() * Wire.DeviceTraceEntry.SIZEOF);
        put32(s, P + Wire.DeviceTrace.DEVICE_NUM, r.deviceNum());
        put32(s, P + Wire.DeviceTrace.COUNT, r.entries().size());
        long off = P + Wire.DeviceTrace.SIZEOF;
        for (DeviceTrace.Entry e : r.entries()) {
            put64(s, off + Wire.DeviceTraceEntry.START_NS, e.startNs());
            put64(s, off + Wire.DeviceTraceEntry.END_NS, e.endNs());
            put64(s, off + Wire.DeviceTraceEntry.TARGET_ID, e.targetId());
            put64(s, off + Wire.DeviceTraceEntry.HOST_OP_ID, e.hostOpId());
            put64(s, off + Wire.DeviceTraceEntry.BYTES, e.bytes());
            put32(s, off + Wire.DeviceTraceEntry.KIND, e.kind());
            put32(s, off + Wire.DeviceTraceEntry.OPTYPE, e.optype());
            off += Wire.DeviceTraceEntry.SIZEOF;
        }
        return bytes(s);
    }

    private static byte[] mpi(MpiEvent r) {
        MemorySegment s = start(r, P + Wire.Mpi.SIZEOF);
        put64(s, P + Wire.Mpi.COMM, r.comm());
        put64(s, P + Wire.Mpi.BYTES, r.bytes());
        put64(s, P + Wire.Mpi.SEQ, r.seq());
        put64(s, P + Wire.Mpi.REQUEST, r.request());
        put32(s, P + Wire.Mpi.PEER, r.peer());
        put32(s, P + Wire.Mpi.SOURCE, r.source());
        put32(s, P + Wire.Mpi.TAG, r.tag());
        put32(s, P + Wire.Mpi.COMM_SIZE, r.commSize());
        put32(s, P + Wire.Mpi.COUNT, r.count());
        put16(s, P + Wire.Mpi.CALL, r.call());
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, P + Wire.Mpi.ENDPOINT, (byte) r.endpoint());
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, P + Wire.Mpi.FLAGS, (byte) r.flags());
        return bytes(s);
    }

    private static byte[] deviceClock(DeviceClock r) {
        MemorySegment s = start(r, P + Wire.DeviceClock.SIZEOF);
        put64(s, P + Wire.DeviceClock.DEVICE_NS, r.deviceNs());
        put32(s, P + Wire.DeviceClock.DEVICE_NUM, r.deviceNum());
        return bytes(s);
    }
}
