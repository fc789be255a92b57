package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.ompprof.sampler.wire.Wire;

/** Records for tests: simple ones with a known sequence number, and random ones of every type. */
public final class TestRecords {
    private TestRecords() {}

    /** A sample of thread {@code threadSeq} carrying {@code n} in its time and wait id. */
    public static SampleRecord sample(int threadSeq, long n, int stackLen) {
        byte[] stack = new byte[stackLen];
        for (int i = 0; i < stackLen; i++) stack[i] = (byte) (n + i);
        return new SampleRecord(
                threadSeq,
                1_000 + n,
                1_000_000,
                4242,
                0,
                1,
                Wire.SAMPLE_OMPT_READY,
                n,
                List.of(),
                List.of(),
                new Context(0x401000, 0x7ffd0000, 0x7ffd0100, 0, MemorySegment.ofArray(stack)));
    }

    /**
     * The wire's repeat of {@code s} at {@code timeNs} for {@code weightNs}, as the agent sends it: the sample struct
     * (registers and flags included) without levels, frames or stack.
     */
    public static SampleRecord repeatOf(SampleRecord s, long timeNs, long weightNs) {
        Context c = s.context();
        return new SampleRecord(
                s.threadSeq(),
                timeNs,
                weightNs,
                s.osTid(),
                s.ompThreadNum(),
                s.state(),
                s.flags() | Wire.SAMPLE_REPEAT,
                s.waitId(),
                List.of(),
                List.of(),
                new Context(c.rip(), c.rsp(), c.rbp(), c.flags(), MemorySegment.ofArray(new byte[0])));
    }

    public static WireRecord random(Random rnd, int type) {
        int seq = rnd.nextInt(1, 100);
        long t = rnd.nextLong(1, Long.MAX_VALUE);
        return switch (type) {
            case Wire.REC_SAMPLE -> {
                int flags = rnd.nextInt() & ~Wire.SAMPLE_REPEAT; // whole: a repeat is the sample before it again
                Context c = context(rnd);
                // rbx and the second window are carried exactly when the flags say so
                OptionalLong rbx =
                        (flags & Wire.SAMPLE_RBX) != 0 ? OptionalLong.of(rnd.nextLong()) : OptionalLong.empty();
                StackWindow upper = (flags & Wire.SAMPLE_UPPER) != 0
                        ? new StackWindow(rnd.nextLong(), bytes(rnd, rnd.nextInt(0, 300)))
                        : StackWindow.NONE;
                c = new Context(c.rip(), c.rsp(), c.rbp(), c.flags(), c.stack(), c.walk(), rbx, upper);
                yield new SampleRecord(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        flags,
                        rnd.nextLong(),
                        taskLevels(rnd),
                        parallelLevels(rnd),
                        c);
            }
            case Wire.REC_THREAD_BEGIN ->
                new ThreadBegin(seq, t, rnd.nextInt(), rnd.nextInt(5), rnd.nextLong(), rnd.nextLong(), rnd.nextInt(64));
            case Wire.REC_THREAD_END -> new ThreadEnd(seq, t);
            case Wire.REC_PARALLEL_BEGIN ->
                new ParallelBegin(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextLong(),
                        context(rnd));
            case Wire.REC_PARALLEL_END ->
                new ParallelEnd(seq, t, rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextInt());
            case Wire.REC_IMPLICIT_TASK ->
                new ImplicitTask(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt());
            case Wire.REC_TASK_CREATE ->
                new TaskCreate(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextLong(),
                        context(rnd));
            case Wire.REC_TASK_SCHEDULE -> new TaskSchedule(seq, t, rnd.nextLong(), rnd.nextLong(), rnd.nextInt());
            case Wire.REC_SYNC_REGION ->
                new SyncRegion(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(2));
            case Wire.REC_MUTEX ->
                new MutexEvent(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt());
            case Wire.REC_CONTROL_TOOL -> new ControlTool(seq, t, rnd.nextLong(), rnd.nextLong(), rnd.nextInt());
            case Wire.REC_MODULE -> module(rnd, seq, t);
            case Wire.REC_MODULE_UNLOAD -> new ModuleUnload(seq, t, rnd.nextLong());
            case Wire.REC_AGENT_INFO ->
                new AgentInfo(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextLong());
            case Wire.REC_AGENT_END -> new AgentEnd(seq, t, rnd.nextLong(), rnd.nextLong());
            case Wire.REC_WORK ->
                new WorkEvent(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt());
            case Wire.REC_MASKED ->
                new MaskedEvent(seq, t, rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextInt());
            case Wire.REC_TASK_BATCH ->
                new TaskBatch(
                        seq,
                        t,
                        java.util.stream.Stream.generate(
                                        () -> new TaskBatch.Entry(rnd.nextLong(), rnd.nextLong(), rnd.nextLong()))
                                .limit(rnd.nextInt(1, Wire.MAX_TASK_BATCH + 1))
                                .toList());
            case Wire.REC_DEVICE ->
                new DeviceEvent(
                        seq,
                        t,
                        rnd.nextInt(),
                        rnd.nextInt(1, 4),
                        rnd.nextInt(2),
                        rnd.nextBoolean() ? "generic-64bit" : "",
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong());
            case Wire.REC_TARGET ->
                new TargetEvent(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(1, 9),
                        rnd.nextInt(1, 3),
                        context(rnd));
            case Wire.REC_TARGET_SUBMIT ->
                new TargetSubmit(seq, t, rnd.nextLong(), rnd.nextLong(), rnd.nextInt(), rnd.nextInt(1, 3));
            case Wire.REC_TARGET_DATA_OP ->
                new TargetDataOp(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(1, 7),
                        rnd.nextInt(1, 3));
            case Wire.REC_DEVICE_TRACE ->
                new DeviceTrace(
                        seq,
                        t,
                        rnd.nextInt(),
                        java.util.stream.Stream.generate(() -> new DeviceTrace.Entry(
                                        rnd.nextLong(),
                                        rnd.nextLong(),
                                        rnd.nextLong(),
                                        rnd.nextLong(),
                                        rnd.nextLong(),
                                        rnd.nextInt(1, 4),
                                        rnd.nextInt(7)))
                                .limit(rnd.nextInt(1, Wire.MAX_DEVICE_TRACE + 1))
                                .toList());
            case Wire.REC_DEVICE_CLOCK -> new DeviceClock(seq, t, rnd.nextLong(), rnd.nextInt());
            case Wire.REC_TASK_BATCH_PACKED -> new TaskBatch(seq, t, packableEntries(rnd), true);
            case Wire.REC_REGION_BATCH_PACKED -> new RegionBatch(seq, t, packableRegions(rnd));
            case Wire.REC_MPI ->
                new MpiEvent(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(),
                        rnd.nextInt(Wire.MPI_CALLS),
                        rnd.nextInt(1, 3),
                        0);
            case Wire.REC_MUTEX_SITE ->
                new MutexSite(
                        seq,
                        t,
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        rnd.nextLong(),
                        context(rnd));
            default -> throw new IllegalArgumentException("type " + type);
        };
    }

    /** Any record type but PAD. */
    public static WireRecord random(Random rnd) {
        return random(rnd, rnd.nextInt(Wire.REC_SAMPLE, Wire.REC_REGION_BATCH_PACKED + 1));
    }

    /**
     * Creations as a thread makes them (ids growing by small steps, now and then a big one;
     * parents shared or jumping; a few shapes), plus the extremes: ids and parents anywhere.
     */
    public static List<TaskBatch.Entry> packableEntries(Random rnd) {
        long[] shapes = {
            rnd.nextLong(),
            rnd.nextLong(),
            rnd.nextLong(),
            rnd.nextLong(),
            rnd.nextLong(),
            rnd.nextLong(),
            rnd.nextLong(),
            rnd.nextLong(),
            0,
            -1
        };
        long task = rnd.nextLong();
        long parent = rnd.nextLong();
        List<TaskBatch.Entry> out = new ArrayList<>();
        for (int i = rnd.nextInt(1, Wire.MAX_TASK_BATCH + 1); i > 0; i--) {
            task += rnd.nextInt(8) == 0 ? rnd.nextLong(1, 1L << 61) : rnd.nextInt(1, 5);
            if (rnd.nextInt(4) == 0) parent = rnd.nextBoolean() ? rnd.nextLong() : parent + rnd.nextInt(-50, 50);
            out.add(new TaskBatch.Entry(task, parent, shapes[rnd.nextInt(shapes.length)]));
        }
        return out;
    }

    /** Ended regions as a thread packs them: creations' ids, parents and shapes, with ends anywhere. */
    public static List<RegionBatch.Entry> packableRegions(Random rnd) {
        long end = rnd.nextLong();
        List<RegionBatch.Entry> out = new ArrayList<>();
        for (TaskBatch.Entry e : packableEntries(rnd)) {
            end += rnd.nextInt(8) == 0 ? rnd.nextLong() : rnd.nextInt(-10, 5000);
            out.add(new RegionBatch.Entry(e.taskId(), e.parentTaskId(), e.shape(), end));
        }
        return out;
    }

    private static Context context(Random rnd) {
        return new Context(
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextInt(8),
                bytes(rnd, rnd.nextInt(0, 300)),
                walk(rnd));
    }

    private static MemorySegment bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return MemorySegment.ofArray(b);
    }

    private static List<TaskLevel> taskLevels(Random rnd) {
        List<TaskLevel> out = new ArrayList<>();
        for (int i = rnd.nextInt(Wire.MAX_LEVELS + 1); i > 0; i--) {
            out.add(new TaskLevel(
                    rnd.nextLong(),
                    rnd.nextLong(),
                    rnd.nextInt(),
                    rnd.nextInt(),
                    rnd.nextInt(),
                    rnd.nextInt(),
                    rnd.nextLong(),
                    rnd.nextLong(),
                    rnd.nextInt(3)));
        }
        return out;
    }

    private static List<ParallelLevel> parallelLevels(Random rnd) {
        List<ParallelLevel> out = new ArrayList<>();
        for (int i = rnd.nextInt(Wire.MAX_LEVELS + 1); i > 0; i--)
            out.add(new ParallelLevel(rnd.nextLong(), rnd.nextInt(), rnd.nextInt(3)));
        return out;
    }

    private static ModuleLoad module(Random rnd, int seq, long t) {
        List<ModuleSegment> segments = new ArrayList<>();
        for (int i = rnd.nextInt(Wire.MAX_SEGMENTS + 1); i > 0; i--) {
            segments.add(
                    new ModuleSegment(rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextInt()));
        }
        byte[] buildId = new byte[rnd.nextInt(Wire.MAX_BUILD_ID + 1)];
        rnd.nextBytes(buildId);
        String path = "/tmp/lib" + Long.toHexString(rnd.nextLong()) + (rnd.nextBoolean() ? "-ü.so" : ".so");
        return new ModuleLoad(
                seq,
                t,
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextLong(),
                rnd.nextInt(32),
                rnd.nextInt(),
                segments,
                path,
                HexFormat.of().formatHex(buildId),
                bytes(rnd, rnd.nextInt(0, 200)));
    }

    /** No walk, or a walk of up to 600 frames that stopped for any reason (checking or not). */
    static Walk walk(Random rnd) {
        if (rnd.nextInt(4) == 0) return Walk.NONE;
        int n = rnd.nextInt(4) == 0 ? rnd.nextInt(Wire.MAX_WALK_FRAMES + 2) : rnd.nextInt(1, 12);
        long[] pcs = new long[n], sps = new long[n];
        for (int i = 0; i < n; i++) {
            pcs[i] = rnd.nextLong();
            sps[i] = rnd.nextLong();
        }
        return new Walk(pcs, sps, rnd.nextInt(3) | (rnd.nextBoolean() ? Wire.WALK_CHECK : 0));
    }

    /** Record equality with segments compared by content (records compare segments by identity). */
    public static boolean same(WireRecord a, WireRecord b) {
        return RecordEncoder.encode(a).length == RecordEncoder.encode(b).length
                && java.util.Arrays.equals(RecordEncoder.encode(a), RecordEncoder.encode(b))
                && normalized(a).equals(normalized(b));
    }

    /** The record's string form with segment identities replaced by their contents. */
    private static String normalized(WireRecord r) {
        return r.toString().replaceAll("MemorySegment\\{[^}]*\\}", "");
    }
}
