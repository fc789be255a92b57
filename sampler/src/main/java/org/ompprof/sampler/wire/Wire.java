package org.ompprof.sampler.wire;

/**
 * The Java mirror of {@code native-sigprof/include/ompprof_wire.h}: the shared-memory region
 * between the JVM and the agent. Change both together and bump {@link #WIRE_VERSION}.
 *
 * <p>Naming is mechanical so that {@code WireLayoutTest} can check every constant against the C
 * compiler: a top-level constant {@code X} is the C macro or enumerator {@code OMPPROF_X}; in a
 * nested struct class, {@code FIELD} is {@code offsetof(struct, field)}, {@code SIZEOF} is
 * {@code sizeof(struct)} and {@code SIZEOF_FIELD} is the size of an array member. Offsets in a
 * record payload struct are relative to the payload, which starts {@link RecordHeader#SIZEOF}
 * bytes into the record. All integers are little-endian.
 */
public final class Wire {
    private Wire() {}

    public static final long WIRE_MAGIC = 0x4d48535250504d4fL;
    public static final int WIRE_VERSION = 4;

    public static final int REGION_HEADER_SIZE = 4096;
    public static final int SLOT_HEADER_SIZE = 4096;

    public static final int AGENT_NONE = 0;
    public static final int AGENT_MAPPED = 1;
    public static final int AGENT_OMPT = 2;
    public static final int AGENT_FINALIZED = 3;

    /** Header jvm_state: what the JVM is doing (the agent waits at exit while it drains). */
    public static final int JVM_DRAINING = 1;

    public static final int JVM_STOPPED = 2;

    /** Header signal_problems bits: what stood in the way of the sampling signal. */
    public static final int SIGNAL_TAKEN = 1;

    public static final int SIGNAL_REPLACED = 2;
    public static final int SIGNAL_BLOCKED = 4;

    public static final int MODE_WALL = 0;
    public static final int MODE_CPU = 1;

    public static final int TASK_FRAME_ASKED = 0;
    public static final int TASK_FRAME_FOUND = 1;
    public static final int TASK_FRAME_REFUTED = 2;

    /** The name of a {@code MODE_*} value, as {@code record --mode} takes it. */
    public static String modeName(int mode) {
        return switch (mode) {
            case MODE_WALL -> "wall";
            case MODE_CPU -> "cpu";
            default -> "mode" + mode;
        };
    }

    /** The name of a {@code TASK_FRAME_*} value, as a recording's metadata keeps it. */
    public static String taskFrameName(int layout) {
        return switch (layout) {
            case TASK_FRAME_ASKED -> "asked";
            case TASK_FRAME_FOUND -> "found";
            case TASK_FRAME_REFUTED -> "refuted";
            default -> "layout" + layout;
        };
    }

    /** Region header flag: sampling starts paused, until the program calls omp_control_tool(start). */
    public static final int REGION_START_PAUSED = 1 << 8; // above the sampling signal in the low 8 bits
    /** cpu mode on POSIX CPU-clock timers even where perf events are allowed. */
    public static final int REGION_CPU_TIMERS = 1 << 9;

    public static final int SLOT_FREE = 0;
    public static final int SLOT_OWNED = 1;
    public static final int SLOT_ENDED = 2;

    public static final int HIST_LINEAR = 256;
    public static final int HIST_LINEAR_NS = 16;
    public static final int HIST_LOG = 24;
    public static final int HIST_BUCKETS = HIST_LINEAR + HIST_LOG;

    public static final int REC_PAD = 0;
    public static final int REC_SAMPLE = 1;
    public static final int REC_THREAD_BEGIN = 2;
    public static final int REC_THREAD_END = 3;
    public static final int REC_PARALLEL_BEGIN = 4;
    public static final int REC_PARALLEL_END = 5;
    public static final int REC_IMPLICIT_TASK = 6;
    public static final int REC_TASK_CREATE = 7;
    public static final int REC_TASK_SCHEDULE = 8;
    public static final int REC_SYNC_REGION = 9;
    public static final int REC_MUTEX = 10;
    public static final int REC_CONTROL_TOOL = 11;
    public static final int REC_MODULE = 12;
    public static final int REC_MODULE_UNLOAD = 13;
    public static final int REC_AGENT_INFO = 14;
    public static final int REC_AGENT_END = 15;
    public static final int REC_WORK = 16;
    public static final int REC_MASKED = 17;
    public static final int REC_TASK_BATCH = 18;
    public static final int REC_DEVICE = 19;
    public static final int REC_TARGET = 20;
    public static final int REC_TARGET_SUBMIT = 21;
    public static final int REC_TARGET_DATA_OP = 22;
    public static final int REC_DEVICE_TRACE = 23;
    public static final int REC_DEVICE_CLOCK = 24;
    public static final int REC_TASK_BATCH_PACKED = 25;
    /** An MPI call's enter or exit, from the companion library libompprof-mpi.so. */
    public static final int REC_MPI = 26;
    /** Where a written mutex hold was released, with the holder's calling context. */
    public static final int REC_MUTEX_SITE = 27;
    /** Regions of shapes the thread sent before, begin and end, packed. */
    public static final int REC_REGION_BATCH_PACKED = 28;
    /** Entries in one TASK_BATCH or TASK_BATCH_PACKED record at most. */
    public static final int MAX_TASK_BATCH = 64;
    /** Recent shapes a packed task entry can name. */
    public static final int PACKED_SHAPES = 7;
    /** Bytes of one packed task entry at most: two 10-byte varints and a shape. */
    public static final int MAX_PACKED_TASK_ENTRY = 28;
    /** Bytes of one packed region entry at most: a task entry and a 10-byte varint. */
    public static final int MAX_PACKED_REGION_ENTRY = 38;

    public static final int REC_VERSION = 2;

    public static final int CTX_TRUNCATED = 1;
    public static final int CTX_NO_BOUNDS = 2;
    public static final int CTX_OFF_STACK = 4;
    /** A task_create without a snapshot: the thread sent one of the same shape before. */
    public static final int CTX_SAME_SHAPE = 8;
    /**
     * A task_create whose encountering task runs on another thread's stack (with {@link #CTX_OFF_STACK}): it shares
     * the context of the task the creating thread runs, whose id the shape field holds with {@link
     * #AS_RUNNING_SHAPE} set (0: none known); the thread's next such creations come packed with that shape.
     */
    public static final int CTX_AS_RUNNING = 16;

    public static final long AS_RUNNING_SHAPE = 1L << 63;

    public static final int MAX_LEVELS = 16;

    /** The handler's frame walk stopped at the sample's context: unwind on from it with its snapshot. */
    public static final int WALK_CONTINUE = 0;
    /** The context is the outermost frame. */
    public static final int WALK_COMPLETE = 1;
    /** The context is the last frame inside the current task's exit frame. */
    public static final int WALK_TASK_EXIT = 2;
    /**
     * A checking recording: the context is the sampled registers with a plain snapshot, the frames all the walk found.
     */
    public static final int WALK_CHECK = 0x100;

    public static final int MAX_WALK_FRAMES = 512;

    public static final int SAMPLE_OMPT_READY = 1;
    public static final int SAMPLE_UNKNOWN_THREAD = 2;
    /** From a perf cpu-clock event: the weight is the CPU time the kernel counted since the previous sample. */
    public static final int SAMPLE_PERF = 8;

    public static final int SAMPLE_PAUSED = 4;
    /**
     * Wall mode: the thread was blocked in a system call and sampled from outside, without a signal (rbp guessed from
     * the stack).
     */
    public static final int SAMPLE_OUTSIDE = 16;
    /**
     * The thread's previous sample again (still blocked in the same call, or the same in all its fields), with this
     * time and weight, sent as the sample struct alone (record.RepeatedSamples).
     */
    public static final int SAMPLE_REPEAT = 32;
    /**
     * The snapshot is preceded by rbx at the context's frame ({@link #RBX_BYTES}, after the walked frames): code
     * without unwind rows may keep its frame's address there (OpenBLAS's kernels), read from its machine code.
     */
    public static final int SAMPLE_RBX = 64;

    public static final int RBX_BYTES = 8;

    /**
     * The snapshot is followed by a second window of the stack ({@link UpperWindow}, then its bytes): from just below
     * rbx or rbp where it lies above the snapshot's end and the walk stopped short, as code without unwind rows may
     * keep a frame larger than the snapshot (OpenBLAS's Haswell dgemm kernel keeps 29 KB).
     */
    public static final int SAMPLE_UPPER = 128;

    /** Whether a sample with {@code flags} carries {@code part} ({@link #SAMPLE_RBX}, {@link #SAMPLE_UPPER}): a repeat
     * carries nothing of its own. */
    public static boolean sampleCarries(int flags, int part) {
        return (flags & part) != 0 && (flags & SAMPLE_REPEAT) == 0;
    }

    public static final int MUTEX_ACQUIRE = 1;
    public static final int MUTEX_ACQUIRED = 2;
    public static final int MUTEX_RELEASED = 3;
    public static final int MUTEX_LOCK_INIT = 4;
    public static final int MUTEX_LOCK_DESTROY = 5;
    public static final int MUTEX_NEST_ACQUIRED = 6;
    public static final int MUTEX_NEST_RELEASED = 7;

    public static final int MOD_MAIN = 1;
    public static final int MOD_VDSO = 2;
    public static final int MOD_FD_HELD = 4;
    public static final int MOD_NO_FILE = 8;
    public static final int MOD_AGENT = 16;

    public static final int MAX_SEGMENTS = 16;
    public static final int MAX_BUILD_ID = 40;

    /** Not in the header (hence private): records are 8-aligned, and a PAD may be only 8 bytes. */
    private static final int RECORD_ALIGN = 8;

    /** {@code struct ompprof_region_header}. */
    public static final class RegionHeader {
        private RegionHeader() {}

        public static final String C_STRUCT = "ompprof_region_header";
        public static final int MAGIC = 0;
        public static final int VERSION = 8;
        public static final int HEADER_SIZE = 12;
        public static final int TOTAL_SIZE = 16;
        public static final int SLOT_COUNT = 24;
        public static final int SLOT_HEADER_SIZE = 28;
        public static final int SAMPLE_RING_SIZE = 32;
        public static final int EVENT_RING_SIZE = 40;
        public static final int MODE = 48;
        public static final int RATE_HZ = 52;
        public static final int STACK_BYTES = 56;
        public static final int FLAGS = 60;
        public static final int AGENT_STATE = 64;
        public static final int AGENT_PID = 68;
        public static final int AGENT_START_NS = 72;
        public static final int NEXT_THREAD_SEQ = 80;
        public static final int SIGNAL_PROBLEMS = 84;
        public static final int NO_SLOT_DROPS = 88;
        public static final int MODULES_ANNOUNCED = 96;
        public static final int MODULES_CAPTURED = 104;
        public static final int JVM_STATE = 112;
        public static final int FOREIGN_SIGNALS = 116;
        public static final int DISABLED_SIGNALS = 120;
        public static final int RUNTIME_VERSION = 128;
        public static final int SIZEOF_RUNTIME_VERSION = 256;
        public static final int WALL_OUTSIDE = 384;
        public static final int WALL_SIGNALLED = 392;
        public static final int WALL_INTERRUPTED = 400;
        public static final int WALL_RESTARTED = 408;
        public static final int CPU_MOVED_THREADS = 416;
        public static final int CPU_SWITCH_LIMIT = 420;
        public static final int TASK_VIEWS_ASKED = 424;
        public static final int TASK_FRAME_LAYOUT = 432;
        public static final int WALL_LATE_TICKS = 436;
        public static final int SIZEOF = 440;
    }

    /** {@code struct ompprof_ring_prod}: the producer's cache line of one ring. */
    public static final class RingProd {
        private RingProd() {}

        public static final String C_STRUCT = "ompprof_ring_prod";
        public static final int WRITE_POS = 0;
        public static final int RECORDS = 8;
        public static final int DROPPED = 16;
        public static final int DROPPED_BYTES = 24;
        public static final int SIZEOF = 64;
    }

    /** {@code struct ompprof_ring_cons}: the consumer's cache line of one ring. */
    public static final class RingCons {
        private RingCons() {}

        public static final String C_STRUCT = "ompprof_ring_cons";
        public static final int READ_POS = 0;
        public static final int SIZEOF = 64;
    }

    /** {@code struct ompprof_slot_header}. */
    public static final class SlotHeader {
        private SlotHeader() {}

        public static final String C_STRUCT = "ompprof_slot_header";
        public static final int SAMPLE_PROD = 0;
        public static final int SAMPLE_CONS = 64;
        public static final int EVENT_PROD = 128;
        public static final int EVENT_CONS = 192;
        public static final int STATE = 256;
        public static final int THREAD_SEQ = 260;
        public static final int OS_TID = 264;
        public static final int GENERATION = 268;
        public static final int HANDLER_CALLS = 272;
        public static final int HANDLER_NS = 280;
        public static final int REENTERED = 288;
        public static final int MUTEX_SKIPPED = 296;
        public static final int MUTEX_MARKED = 304;
        public static final int MUTEX_TABLE_FULL = 312;
        public static final int HIST = 320;
        public static final int SIZEOF_HIST = 4 * HIST_BUCKETS;
        public static final int SAMPLE_BYTES = 1440;
        public static final int OPEN_REGIONS = 1472;
        public static final int OPEN_REGION = 1480;
        public static final int PENDING_COUNT = 1608;
        public static final int PENDING_BYTES = 1612;
        public static final int PENDING_BASE_PARALLEL_ID = 1616;
        public static final int PENDING_BASE_END_NS = 1624;
        public static final int PENDING_REGION = 1632;
        public static final int SIZEOF = 4064;
    }

    /** Open regions of known shapes a thread keeps in its slot's header before it writes their begins. */
    public static final int OPEN_REGIONS = 4;

    /** Bytes of a slot's pending region batch at most (a full batch's entries). */
    public static final int PENDING_REGION_BYTES = 2432;

    /** {@code struct ompprof_open_region}: a region its same-shape PARALLEL_BEGIN would give. */
    public static final class OpenRegion {
        private OpenRegion() {}

        public static final String C_STRUCT = "ompprof_open_region";
        public static final int PARALLEL_ID = 0;
        public static final int PARENT_TASK_ID = 8;
        public static final int SHAPE = 16;
        public static final int CODEPTR_RA = 24;
        public static final int SIZEOF = 32;
    }

    /** {@code struct ompprof_record_header}: the first 16 bytes of every record. */
    public static final class RecordHeader {
        private RecordHeader() {}

        public static final String C_STRUCT = "ompprof_record_header";
        public static final int SIZE = 0;
        public static final int TYPE = 4;
        public static final int VERSION = 6;
        public static final int THREAD_SEQ = 8;
        public static final int RESERVED = 12;
        public static final int SIZEOF = 16;
    }

    /** {@code struct ompprof_context}: registers and the stack snapshot's length. */
    public static final class Context {
        private Context() {}

        public static final String C_STRUCT = "ompprof_context";
        public static final int RIP = 0;
        public static final int RSP = 8;
        public static final int RBP = 16;
        public static final int STACK_LEN = 24;
        public static final int CTX_FLAGS = 28;
        public static final int FRAME_COUNT = 32;
        public static final int WALK_STOP = 36;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_task_level}. */
    public static final class TaskLevel {
        private TaskLevel() {}

        public static final String C_STRUCT = "ompprof_task_level";
        public static final int EXIT_FRAME = 0;
        public static final int ENTER_FRAME = 8;
        public static final int EXIT_FRAME_FLAGS = 16;
        public static final int ENTER_FRAME_FLAGS = 20;
        public static final int TASK_FLAGS = 24;
        public static final int THREAD_NUM = 28;
        public static final int TASK_ID = 32;
        public static final int PARALLEL_ID = 40;
        public static final int INFO_RESULT = 48;
        public static final int SIZEOF = 56;
    }

    /** {@code struct ompprof_parallel_level}. */
    public static final class ParallelLevel {
        private ParallelLevel() {}

        public static final String C_STRUCT = "ompprof_parallel_level";
        public static final int PARALLEL_ID = 0;
        public static final int TEAM_SIZE = 8;
        public static final int INFO_RESULT = 12;
        public static final int SIZEOF = 16;
    }

    /** {@code struct ompprof_sample}; followed by task levels, parallel levels, stack. */
    public static final class Sample {
        private Sample() {}

        public static final String C_STRUCT = "ompprof_sample";
        public static final int TIME_NS = 0;
        public static final int WEIGHT_NS = 8;
        public static final int OS_TID = 16;
        public static final int OMP_THREAD_NUM = 20;
        public static final int STATE = 24;
        public static final int FLAGS = 28;
        public static final int WAIT_ID = 32;
        public static final int TASK_LEVELS = 40;
        public static final int PARALLEL_LEVELS = 44;
        public static final int CTX = 48;
        public static final int SIZEOF = 88;
    }

    /** {@code struct ompprof_frame}: one frame the handler walked. */
    public static final class UpperWindow {
        private UpperWindow() {}

        public static final String C_STRUCT = "ompprof_upper_window";
        public static final int ADDR = 0;
        public static final int LEN = 8;
        public static final int PAD = 12;
        public static final int SIZEOF = 16;
    }

    public static final class WalkedFrame {
        private WalkedFrame() {}

        public static final String C_STRUCT = "ompprof_frame";
        public static final int PC = 0;
        public static final int SP = 8;
        public static final int SIZEOF = 16;
    }

    /** {@code struct ompprof_thread_begin}. */
    public static final class ThreadBegin {
        private ThreadBegin() {}

        public static final String C_STRUCT = "ompprof_thread_begin";
        public static final int TIME_NS = 0;
        public static final int OS_TID = 8;
        public static final int THREAD_TYPE = 12;
        public static final int STACK_LO = 16;
        public static final int STACK_HI = 24;
        public static final int SLOT = 32;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_thread_end}. */
    public static final class ThreadEnd {
        private ThreadEnd() {}

        public static final String C_STRUCT = "ompprof_thread_end";
        public static final int TIME_NS = 0;
        public static final int SIZEOF = 8;
    }

    /** {@code struct ompprof_parallel_begin}; followed by the stack snapshot. */
    public static final class ParallelBegin {
        private ParallelBegin() {}

        public static final String C_STRUCT = "ompprof_parallel_begin";
        public static final int TIME_NS = 0;
        public static final int PARALLEL_ID = 8;
        public static final int PARENT_TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int ENC_EXIT_FRAME = 32;
        public static final int ENC_ENTER_FRAME = 40;
        public static final int REQUESTED_TEAM_SIZE = 48;
        public static final int FLAGS = 52;
        public static final int SHAPE = 56;
        public static final int CTX = 64;
        public static final int SIZEOF = 104;
    }

    /** {@code struct ompprof_parallel_end}. */
    public static final class ParallelEnd {
        private ParallelEnd() {}

        public static final String C_STRUCT = "ompprof_parallel_end";
        public static final int TIME_NS = 0;
        public static final int PARALLEL_ID = 8;
        public static final int TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int FLAGS = 32;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_implicit_task}. */
    public static final class ImplicitTask {
        private ImplicitTask() {}

        public static final String C_STRUCT = "ompprof_implicit_task";
        public static final int TIME_NS = 0;
        public static final int PARALLEL_ID = 8;
        public static final int TASK_ID = 16;
        public static final int ENDPOINT = 24;
        public static final int ACTUAL_PARALLELISM = 28;
        public static final int INDEX = 32;
        public static final int FLAGS = 36;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_task_create}; followed by the stack snapshot. */
    public static final class TaskCreate {
        private TaskCreate() {}

        public static final String C_STRUCT = "ompprof_task_create";
        public static final int TIME_NS = 0;
        public static final int PARENT_TASK_ID = 8;
        public static final int TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int ENC_EXIT_FRAME = 32;
        public static final int ENC_ENTER_FRAME = 40;
        public static final int FLAGS = 48;
        public static final int HAS_DEPENDENCES = 52;
        public static final int SHAPE = 56;
        public static final int CTX = 64;
        public static final int SIZEOF = 104;
    }

    /** {@code struct ompprof_task_schedule}. */
    public static final class TaskSchedule {
        private TaskSchedule() {}

        public static final String C_STRUCT = "ompprof_task_schedule";
        public static final int TIME_NS = 0;
        public static final int PRIOR_TASK_ID = 8;
        public static final int NEXT_TASK_ID = 16;
        public static final int PRIOR_STATUS = 24;
        public static final int SIZEOF = 32;
    }

    /** {@code struct ompprof_sync_region}. */
    public static final class SyncRegion {
        private SyncRegion() {}

        public static final String C_STRUCT = "ompprof_sync_region";
        public static final int TIME_NS = 0;
        public static final int PARALLEL_ID = 8;
        public static final int TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int KIND = 32;
        public static final int ENDPOINT = 36;
        public static final int IS_WAIT = 40;
        public static final int SIZEOF = 48;
    }

    /** {@code struct ompprof_mutex}. */
    public static final class Mutex {
        private Mutex() {}

        public static final String C_STRUCT = "ompprof_mutex";
        public static final int TIME_NS = 0;
        public static final int WAIT_ID = 8;
        public static final int CODEPTR_RA = 16;
        public static final int EVENT = 24;
        public static final int KIND = 28;
        public static final int HINT = 32;
        public static final int IMPL = 36;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_mutex_site}: where a written hold was released, with the holder's context. */
    public static final class MutexSite {
        private MutexSite() {}

        public static final String C_STRUCT = "ompprof_mutex_site";
        public static final int TIME_NS = 0;
        public static final int WAIT_ID = 8;
        public static final int TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int ENC_EXIT_FRAME = 32;
        public static final int SHAPE = 40;
        public static final int CTX = 48;
        public static final int SIZEOF = 48 + Context.SIZEOF;
    }

    /** {@code struct ompprof_control_tool}. */
    public static final class ControlTool {
        private ControlTool() {}

        public static final String C_STRUCT = "ompprof_control_tool";
        public static final int TIME_NS = 0;
        public static final int MODIFIER = 8;
        public static final int CODEPTR_RA = 16;
        public static final int COMMAND = 24;
        public static final int SIZEOF = 32;
    }

    /** {@code struct ompprof_work}. */
    public static final class Work {
        private Work() {}

        public static final String C_STRUCT = "ompprof_work";
        public static final int TIME_NS = 0;
        public static final int PARALLEL_ID = 8;
        public static final int TASK_ID = 16;
        public static final int COUNT = 24;
        public static final int CODEPTR_RA = 32;
        public static final int WORK_TYPE = 40;
        public static final int ENDPOINT = 44;
        public static final int SIZEOF = 48;
    }

    /** {@code struct ompprof_task_batch}, followed by {@code count} {@link TaskBatchEntry}s. */
    public static final class TaskBatch {
        private TaskBatch() {}

        public static final String C_STRUCT = "ompprof_task_batch";
        public static final int TIME_NS = 0;
        public static final int COUNT = 8;
        public static final int SIZEOF = 16;
    }

    /**
     * {@code struct ompprof_task_batch_packed}, followed by {@code bytes} bytes of packed
     * entries (the encoding is described in the header and in {@code TaskBatchPacking}).
     */
    public static final class TaskBatchPacked {
        private TaskBatchPacked() {}

        public static final String C_STRUCT = "ompprof_task_batch_packed";
        public static final int TIME_NS = 0;
        public static final int COUNT = 8;
        public static final int BYTES = 12;
        public static final int BASE_TASK_ID = 16;
        public static final int SIZEOF = 24;
    }

    /**
     * {@code struct ompprof_region_batch_packed}, followed by {@code bytes} bytes of packed
     * entries (the encoding is described in the header and in {@code TaskBatchPacking}).
     */
    public static final class RegionBatchPacked {
        private RegionBatchPacked() {}

        public static final String C_STRUCT = "ompprof_region_batch_packed";
        public static final int TIME_NS = 0;
        public static final int COUNT = 8;
        public static final int BYTES = 12;
        public static final int BASE_PARALLEL_ID = 16;
        public static final int BASE_END_NS = 24;
        public static final int SIZEOF = 32;
    }

    /** {@code struct ompprof_task_batch_entry}. */
    public static final class TaskBatchEntry {
        private TaskBatchEntry() {}

        public static final String C_STRUCT = "ompprof_task_batch_entry";
        public static final int TASK_ID = 0;
        public static final int PARENT_TASK_ID = 8;
        public static final int SHAPE = 16;
        public static final int SIZEOF = 24;
    }

    /** {@code struct ompprof_masked}. */
    public static final class Masked {
        private Masked() {}

        public static final String C_STRUCT = "ompprof_masked";
        public static final int TIME_NS = 0;
        public static final int PARALLEL_ID = 8;
        public static final int TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int ENDPOINT = 32;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_segment}: one PT_LOAD of a module. */
    public static final class Segment {
        private Segment() {}

        public static final String C_STRUCT = "ompprof_segment";
        public static final int VADDR = 0;
        public static final int MEMSZ = 8;
        public static final int OFFSET = 16;
        public static final int FILESZ = 24;
        public static final int FLAGS = 32;
        public static final int SIZEOF = 40;
    }

    /** {@code struct ompprof_module}; followed by segments, path, inline image. */
    public static final class Module {
        private Module() {}

        public static final String C_STRUCT = "ompprof_module";
        public static final int TIME_NS = 0;
        public static final int MODULE_ID = 8;
        public static final int LOAD_BIAS = 16;
        public static final int EH_FRAME_HDR = 24;
        public static final int DEV = 32;
        public static final int INO = 40;
        public static final int FILE_SIZE = 48;
        public static final int MTIME_NS = 56;
        public static final int FLAGS = 64;
        public static final int FD = 68;
        public static final int SEGMENT_COUNT = 72;
        public static final int PATH_LEN = 76;
        public static final int IMAGE_LEN = 80;
        public static final int BUILD_ID_LEN = 84;
        public static final int BUILD_ID = 88;
        public static final int SIZEOF_BUILD_ID = MAX_BUILD_ID;
        public static final int SIZEOF = 128;
    }

    /** {@code struct ompprof_module_unload}. */
    public static final class ModuleUnload {
        private ModuleUnload() {}

        public static final String C_STRUCT = "ompprof_module_unload";
        public static final int TIME_NS = 0;
        public static final int MODULE_ID = 8;
        public static final int SIZEOF = 16;
    }

    /** {@code struct ompprof_agent_info}. */
    public static final class AgentInfo {
        private AgentInfo() {}

        public static final String C_STRUCT = "ompprof_agent_info";
        public static final int TIME_NS = 0;
        public static final int SAMPLE_PERIOD_NS = 8;
        public static final int PID = 16;
        public static final int OMPT_VERSION = 20;
        public static final int MODE = 24;
        public static final int RATE_HZ = 28;
        public static final int STACK_BYTES = 32;
        public static final int CALLBACKS_REGISTERED = 40;
        public static final int SIZEOF = 48;
    }

    /** {@code struct ompprof_agent_end}. */
    public static final class AgentEnd {
        private AgentEnd() {}

        public static final String C_STRUCT = "ompprof_agent_end";
        public static final int TIME_NS = 0;
        public static final int TIMERS_FAILED = 8;
        public static final int THREADS_SEEN = 16;
        public static final int SIZEOF = 24;
    }

    /** Bytes of one slot: header, sample ring, event ring. */
    public static long slotSize(long sampleRingSize, long eventRingSize) {
        return SLOT_HEADER_SIZE + sampleRingSize + eventRingSize;
    }

    /** Bytes of the whole region. */
    public static long regionSize(int slots, long sampleRingSize, long eventRingSize) {
        return REGION_HEADER_SIZE + slots * slotSize(sampleRingSize, eventRingSize);
    }

    public static final int DEVICE_INIT = 1;
    public static final int DEVICE_FINALIZE = 2;
    public static final int DEVICE_LOAD = 3;
    public static final int DEVICE_TRACING = 1;
    public static final int DEVICE_TYPE_LEN = 32;

    /** {@code struct ompprof_device}: device initialize, finalize and load. */
    public static final class Device {
        private Device() {}

        public static final String C_STRUCT = "ompprof_device";
        public static final int TIME_NS = 0;
        public static final int MODULE_ID = 8;
        public static final int HOST_ADDR = 16;
        public static final int DEVICE_ADDR = 24;
        public static final int BYTES = 32;
        public static final int DEVICE_NUM = 40;
        public static final int EVENT = 44;
        public static final int FLAGS = 48;
        public static final int TYPE = 56;
        public static final int SIZEOF_TYPE = DEVICE_TYPE_LEN;
        public static final int SIZEOF = 88;
    }

    /** {@code struct ompprof_target}: a target region's begin (with the encountering context) or end. */
    public static final class Target {
        private Target() {}

        public static final String C_STRUCT = "ompprof_target";
        public static final int TIME_NS = 0;
        public static final int TARGET_ID = 8;
        public static final int TASK_ID = 16;
        public static final int CODEPTR_RA = 24;
        public static final int ENC_EXIT_FRAME = 32;
        public static final int ENC_ENTER_FRAME = 40;
        public static final int DEVICE_NUM = 48;
        public static final int KIND = 52;
        public static final int ENDPOINT = 56;
        public static final int CTX = 64;
        public static final int SIZEOF = 64 + Context.SIZEOF;
    }

    /** {@code struct ompprof_target_submit}: a kernel submission's begin or end. */
    public static final class TargetSubmit {
        private TargetSubmit() {}

        public static final String C_STRUCT = "ompprof_target_submit";
        public static final int TIME_NS = 0;
        public static final int TARGET_ID = 8;
        public static final int HOST_OP_ID = 16;
        public static final int REQUESTED_NUM_TEAMS = 24;
        public static final int ENDPOINT = 28;
        public static final int SIZEOF = 32;
    }

    /** {@code struct ompprof_target_data_op}: a data operation's begin or end. */
    public static final class TargetDataOp {
        private TargetDataOp() {}

        public static final String C_STRUCT = "ompprof_target_data_op";
        public static final int TIME_NS = 0;
        public static final int TARGET_ID = 8;
        public static final int HOST_OP_ID = 16;
        public static final int SRC_ADDR = 24;
        public static final int DEST_ADDR = 32;
        public static final int BYTES = 40;
        public static final int CODEPTR_RA = 48;
        public static final int SRC_DEVICE_NUM = 56;
        public static final int DEST_DEVICE_NUM = 60;
        public static final int OPTYPE = 64;
        public static final int ENDPOINT = 68;
        public static final int SIZEOF = 72;
    }

    public static final int TRACE_TARGET = 1;
    public static final int TRACE_KERNEL = 2;
    public static final int TRACE_DATA_OP = 3;
    /** Entries in one DEVICE_TRACE record at most. */
    public static final int MAX_DEVICE_TRACE = 128;

    /** {@code struct ompprof_device_trace}: one batch of OMPT device trace records, in device time. */
    public static final class DeviceTrace {
        private DeviceTrace() {}

        public static final String C_STRUCT = "ompprof_device_trace";
        public static final int TIME_NS = 0;
        public static final int DEVICE_NUM = 8;
        public static final int COUNT = 12;
        public static final int SIZEOF = 16;
    }

    /** {@code struct ompprof_device_trace_entry}. */
    public static final class DeviceTraceEntry {
        private DeviceTraceEntry() {}

        public static final String C_STRUCT = "ompprof_device_trace_entry";
        public static final int START_NS = 0;
        public static final int END_NS = 8;
        public static final int TARGET_ID = 16;
        public static final int HOST_OP_ID = 24;
        public static final int BYTES = 32;
        public static final int KIND = 40;
        public static final int OPTYPE = 44;
        public static final int SIZEOF = 48;
    }

    /** {@code struct ompprof_device_clock}: one (host, device) clock reading. */
    public static final class DeviceClock {
        private DeviceClock() {}

        public static final String C_STRUCT = "ompprof_device_clock";
        public static final int HOST_NS = 0;
        public static final int DEVICE_NS = 8;
        public static final int DEVICE_NUM = 16;
        public static final int SIZEOF = 24;
    }

    /** The symbol the agent looks up to hand the MPI companion its record writer. */
    public static final String MPI_ATTACH_SYMBOL = "ompprof_mpi_attach";

    public static final int MPI_ABI = 1;

    /** {@code enum ompprof_mpi_call}: the MPI call kinds ({@code Mpi.CALL}). */
    public static final int MPI_CALL_OTHER = 0;

    public static final int MPI_CALL_INIT = 1;
    public static final int MPI_CALL_FINALIZE = 2;
    public static final int MPI_CALL_ALLREDUCE = 3;
    public static final int MPI_CALL_REDUCE = 4;
    public static final int MPI_CALL_BCAST = 5;
    public static final int MPI_CALL_BARRIER = 6;
    public static final int MPI_CALL_ALLGATHER = 7;
    public static final int MPI_CALL_ALLGATHERV = 8;
    public static final int MPI_CALL_ALLTOALL = 9;
    public static final int MPI_CALL_ALLTOALLV = 10;
    public static final int MPI_CALL_GATHER = 11;
    public static final int MPI_CALL_SCATTER = 12;
    public static final int MPI_CALL_SEND = 13;
    public static final int MPI_CALL_RECV = 14;
    public static final int MPI_CALL_ISEND = 15;
    public static final int MPI_CALL_IRECV = 16;
    public static final int MPI_CALL_WAIT = 17;
    public static final int MPI_CALL_WAITALL = 18;
    public static final int MPI_CALL_WAITANY = 19;
    public static final int MPI_CALL_SENDRECV = 20;
    /** Call kinds, OTHER included. */
    public static final int MPI_CALLS = 21;

    public static final int MPI_ENTER = 1;
    public static final int MPI_EXIT = 2;
    /** Not a call: a measure of the rank's clock against rank 0's (see {@code ompprof_wire.h}). */
    public static final int MPI_CLOCK = 3;

    /** {@code struct ompprof_mpi}: an MPI call's enter or exit. */
    public static final class Mpi {
        private Mpi() {}

        public static final String C_STRUCT = "ompprof_mpi";
        public static final int TIME_NS = 0;
        public static final int COMM = 8;
        public static final int BYTES = 16;
        public static final int SEQ = 24;
        public static final int REQUEST = 32;
        public static final int PEER = 40;
        public static final int SOURCE = 44;
        public static final int TAG = 48;
        public static final int COMM_SIZE = 52;
        public static final int COUNT = 56;
        public static final int CALL = 60;
        public static final int ENDPOINT = 62;
        public static final int FLAGS = 63;
        public static final int SIZEOF = 64;
    }

    /** Whether this mirror knows record type {@code type}. */
    public static boolean isKnownRecordType(int type) {
        return type >= REC_PAD && type <= REC_REGION_BATCH_PACKED;
    }

    /** The smallest legal record (a PAD of size, type and version only). */
    public static int minRecordSize() {
        return RECORD_ALIGN;
    }

    /** {@code n} rounded up to the record alignment. */
    public static long align(long n) {
        return (n + RECORD_ALIGN - 1) & -RECORD_ALIGN;
    }
}
