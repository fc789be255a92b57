/*
 * ompprof wire format: the shared-memory region between the JVM (creator,
 * consumer) and the agent (producer). The Java mirror is
 * sampler/src/main/java/org/ompprof/sampler/wire/Wire.java; change both
 * together and bump OMPPROF_WIRE_VERSION.
 *
 * All integers are little-endian, all offsets in bytes. Every record is
 * 8-byte aligned and starts with a 16-byte RecordHeader.
 */
#ifndef OMPPROF_WIRE_H
#define OMPPROF_WIRE_H

#include <stdint.h>

#define OMPPROF_WIRE_MAGIC   0x4d48535250504d4fULL /* "OMPPRSHM" little-endian */
#define OMPPROF_WIRE_VERSION 4u

/* ---------- region layout ----------
 * [RegionHeader, REGION_HEADER_SIZE bytes]
 * slot i at REGION_HEADER_SIZE + i * slot_size, where
 *   slot_size = SLOT_HEADER_SIZE + sample_ring_size + event_ring_size
 *   slot:  [SlotHeader][sample ring data][event ring data]
 * Each slot belongs to one thread at a time and holds two single-producer
 * rings: the sample ring is written only by the SIGPROF handler, the event
 * ring only by OMPT callbacks of that thread. Two rings keep each one
 * single-producer even when a signal interrupts a callback.
 */
#define OMPPROF_REGION_HEADER_SIZE 4096u
#define OMPPROF_SLOT_HEADER_SIZE   4096u

enum ompprof_agent_state {
  OMPPROF_AGENT_NONE = 0,      /* nobody attached yet */
  OMPPROF_AGENT_MAPPED = 1,    /* agent mapped the region (JVM may unlink it now) */
  OMPPROF_AGENT_OMPT = 2,      /* ompt initialize ran: OMPT connected */
  OMPPROF_AGENT_FINALIZED = 3, /* ompt finalize ran: no more records */
};

/* What the JVM is doing (header jvm_state): the agent waits at exit while it drains. */
enum ompprof_jvm_state {
  OMPPROF_JVM_DRAINING = 1, /* draining the rings */
  OMPPROF_JVM_STOPPED = 2,  /* stopped draining: nobody will read more */
};

/* What stood in the way of the sampling signal (header signal_problems). */
enum ompprof_signal_problem {
  OMPPROF_SIGNAL_TAKEN = 1,    /* the program had its own handler: left alone, nothing sampled */
  OMPPROF_SIGNAL_REPLACED = 2, /* the program replaced our handler while it ran */
  OMPPROF_SIGNAL_BLOCKED = 4,  /* a thread ended with the signal blocked */
};

enum ompprof_mode { OMPPROF_MODE_WALL = 0, OMPPROF_MODE_CPU = 1 };

/* Wall mode: how the agent finds the frame of a task the runtime switches to (header task_frame_layout; agent
 * src/wall.c): by asking the runtime, until its answers showed the frame lies just before the task's data. */
enum ompprof_task_frame {
  OMPPROF_TASK_FRAME_ASKED = 0,   /* asked of the runtime at every switch (too few answers yet) */
  OMPPROF_TASK_FRAME_FOUND = 1,   /* found from the task's data; the runtime still asked now and then */
  OMPPROF_TASK_FRAME_REFUTED = 2, /* an answer disagreed: asked at every switch for the rest of the run */
};

enum ompprof_region_flags {
  /* sampling starts paused: only omp_control_tool(omp_control_tool_start) starts it */
  OMPPROF_REGION_START_PAUSED = 1u << 8, /* above the signal number in the low 8 bits */
  /* cpu mode with POSIX CPU-clock timers even where perf events are allowed */
  OMPPROF_REGION_CPU_TIMERS = 1u << 9,
};

/* Written by the JVM before the program starts, except where marked. */
struct ompprof_region_header {
  uint64_t magic;            /* 0   */
  uint32_t version;          /* 8   */
  uint32_t header_size;      /* 12  = OMPPROF_REGION_HEADER_SIZE */
  uint64_t total_size;       /* 16  */
  uint32_t slot_count;       /* 24  */
  uint32_t slot_header_size; /* 28  = OMPPROF_SLOT_HEADER_SIZE */
  uint64_t sample_ring_size; /* 32  power of two */
  uint64_t event_ring_size;  /* 40  power of two */
  uint32_t mode;             /* 48  enum ompprof_mode */
  uint32_t rate_hz;          /* 52  samples per second per thread */
  uint32_t stack_bytes;      /* 56  max stack snapshot bytes */
  uint32_t flags;            /* 60  low 8 bits: the sampling signal (0: SIGPROF); above: enum ompprof_region_flags */
  /* agent side (atomics) */
  uint32_t agent_state;       /* 64  enum ompprof_agent_state, release store */
  uint32_t agent_pid;         /* 68  CAS 0 -> pid by the one agent allowed to attach */
  uint64_t agent_start_ns;    /* 72  CLOCK_MONOTONIC at attach */
  uint32_t next_thread_seq;   /* 80  fetch_add; thread seq numbers start at 1 */
  uint32_t signal_problems;   /* 84  enum ompprof_signal_problem bits, atomic or by the agent */
  uint64_t no_slot_drops;     /* 88  records dropped because every slot was taken */
  uint64_t modules_announced; /* 96  MODULE records with a held fd, release store by agent */
  uint64_t modules_captured;  /* 104 release store by JVM after it has secured those images */
  uint32_t jvm_state;         /* 112 JVM: enum ompprof_jvm_state */
  uint32_t foreign_signals;   /* 116 sampling signals no timer of ours sent (setitimer, kill) */
  uint64_t disabled_signals;  /* 120 SIGPROFs that arrived while sampling was paused/off */
  char runtime_version[256];  /* 128 from ompt_start_tool, NUL-terminated */
  /* wall mode (agent src/wall.c), atomics */
  uint64_t wall_outside;     /* 384 samples of blocked threads taken from outside (no signal) */
  uint64_t wall_signalled;   /* 392 signals sent to running threads */
  uint64_t wall_interrupted; /* 400 of those, ones that found the thread just blocked: its call returned EINTR */
  uint64_t wall_restarted;   /* 408 such calls the handler restarted instead (see agent src/wall.c) */
  /* cpu mode (agent src/switch_watch.h) */
  uint32_t cpu_moved_threads; /* 416 atomic: threads moved from their perf event to a CPU-clock timer */
  uint32_t cpu_switch_limit;  /* 420 written at attach: the context switches per CPU-second that move a thread */
  /* wall mode (agent src/wall.c), atomics */
  uint64_t task_views_asked;  /* 424 views of a switched-to task made by asking the runtime */
  uint32_t task_frame_layout; /* 432 enum ompprof_task_frame */
  uint32_t wall_late_ticks;   /* 436 atomic: ticks (or the rest of one) the wall sampler left, having come late */
};

enum ompprof_slot_state {
  OMPPROF_SLOT_FREE = 0,  /* JVM -> agent: may be claimed (CAS FREE->OWNED) */
  OMPPROF_SLOT_OWNED = 1, /* a live thread writes here */
  OMPPROF_SLOT_ENDED = 2, /* thread ended; JVM drains and sets FREE again */
};

/* Handler cost histogram: 256 linear buckets of 16 ns (0..4096 ns), then
 * 24 buckets of powers of two: bucket 256+k counts [4096<<k, 4096<<(k+1)). */
#define OMPPROF_HIST_LINEAR    256u
#define OMPPROF_HIST_LINEAR_NS 16u
#define OMPPROF_HIST_LOG       24u
#define OMPPROF_HIST_BUCKETS   (OMPPROF_HIST_LINEAR + OMPPROF_HIST_LOG)

/* One ring's positions. Positions count bytes ever written/consumed;
 * the byte offset is pos & (ring_size - 1). Producer: load read_pos with
 * acquire, write the record bytes, store write_pos with release. Consumer:
 * load write_pos with acquire, read, store read_pos with release. */
struct ompprof_ring_prod { /* own cache line */
  uint64_t write_pos;
  uint64_t records; /* records written */
  uint64_t dropped; /* records dropped because the ring was full */
  uint64_t dropped_bytes;
  uint64_t pad[4];
};
struct ompprof_ring_cons { /* own cache line */
  uint64_t read_pos;
  uint64_t pad[7];
};

/* A parallel region as its same-shape PARALLEL_BEGIN would give it (ompprof_slot_header.open_region). */
struct ompprof_open_region {
  uint64_t parallel_id;
  uint64_t parent_task_id;
  uint64_t shape;
  uint64_t codeptr_ra;
};

#define OMPPROF_OPEN_REGIONS         4u /* open regions of known shapes a thread keeps before it writes their begins */
#define OMPPROF_PENDING_REGION_BYTES 2432u /* a full region batch's entries at most: 64 of 38 bytes */

struct ompprof_slot_header {
  struct ompprof_ring_prod sample_prod; /* 0   */
  struct ompprof_ring_cons sample_cons; /* 64  */
  struct ompprof_ring_prod event_prod;  /* 128 */
  struct ompprof_ring_cons event_cons;  /* 192 */
  uint32_t state;                       /* 256 enum ompprof_slot_state */
  uint32_t thread_seq;                  /* 260 seq of the owning thread (0 when FREE) */
  uint32_t os_tid;                      /* 264 */
  uint32_t generation;                  /* 268 incremented by the agent on every claim */
  uint64_t handler_calls;               /* 272 samples taken (cumulative over owners) */
  uint64_t handler_ns;                  /* 280 total handler time, ns */
  uint64_t reentered;                   /* 288 signals that found the handler already running */
  /* OMPT mutex events (locks, critical, ordered, atomic): only waits that were
   * sampled and holds during which a waiter was sampled are written (see
   * enum ompprof_mutex_event); the rest are counted here. Cumulative over
   * owners; each written by the owning thread only. */
  uint64_t mutex_skipped;              /* 296 mutex callbacks that wrote no record */
  uint64_t mutex_marked;               /* 304 samples that found the thread waiting for a mutex (marked it) */
  uint64_t mutex_table_full;           /* 312 marks that found the waited-for table full (holds then over-recorded) */
  uint32_t hist[OMPPROF_HIST_BUCKETS]; /* 320: handler cost histogram */
  uint64_t sample_bytes; /* 1440 bytes of sample records written to the sample ring (cumulative over owners) */
  uint8_t pad_open[24];  /* 1448: the open regions on a cache line of their own (the JVM polls the counters) */
  /* Regions of shapes the owner sent before that it opened and has not ended,
   * the innermost last: their PARALLEL_BEGINs are written packed with their
   * ends (OMPPROF_REC_REGION_BATCH_PACKED). Should the program die inside
   * them, the JVM writes those begins from here once it has exited. */
  uint32_t open_regions;                                        /* 1472 entries of open_region in use */
  uint32_t pad_open2;                                           /* 1476 */
  struct ompprof_open_region open_region[OMPPROF_OPEN_REGIONS]; /* 1480 */
  /* The owner's ended regions not yet written: the OMPPROF_REC_REGION_BATCH_PACKED
   * payload it is making (count 0: none). Should the program die, the JVM
   * writes them from here once it has exited (bytes that do not hold exactly
   * count entries are left out). */
  uint32_t pending_count;                               /* 1608 */
  uint32_t pending_bytes;                               /* 1612 */
  uint64_t pending_base_parallel_id;                    /* 1616 */
  uint64_t pending_base_end_ns;                         /* 1624 */
  uint8_t pending_region[OMPPROF_PENDING_REGION_BYTES]; /* 1632 */
};

/* ---------- records ---------- */
enum ompprof_record_type {
  OMPPROF_REC_PAD = 0, /* skip `size` bytes (ring wrap) */
  OMPPROF_REC_SAMPLE = 1,
  OMPPROF_REC_THREAD_BEGIN = 2,
  OMPPROF_REC_THREAD_END = 3,
  OMPPROF_REC_PARALLEL_BEGIN = 4,
  OMPPROF_REC_PARALLEL_END = 5,
  OMPPROF_REC_IMPLICIT_TASK = 6,
  OMPPROF_REC_TASK_CREATE = 7,
  OMPPROF_REC_TASK_SCHEDULE = 8,
  OMPPROF_REC_SYNC_REGION = 9,
  OMPPROF_REC_MUTEX = 10,
  OMPPROF_REC_CONTROL_TOOL = 11,
  OMPPROF_REC_MODULE = 12,
  OMPPROF_REC_MODULE_UNLOAD = 13,
  OMPPROF_REC_AGENT_INFO = 14,
  OMPPROF_REC_AGENT_END = 15,
  OMPPROF_REC_WORK = 16,
  OMPPROF_REC_MASKED = 17,
  OMPPROF_REC_TASK_BATCH = 18,
  OMPPROF_REC_DEVICE = 19,              /* device initialize / finalize / load */
  OMPPROF_REC_TARGET = 20,              /* target region begin (with context) / end */
  OMPPROF_REC_TARGET_SUBMIT = 21,       /* kernel submission begin / end */
  OMPPROF_REC_TARGET_DATA_OP = 22,      /* data allocation / transfer / deletion begin / end */
  OMPPROF_REC_DEVICE_TRACE = 23,        /* OMPT device trace records, in device time */
  OMPPROF_REC_DEVICE_CLOCK = 24,        /* one (host, device) clock pair */
  OMPPROF_REC_TASK_BATCH_PACKED = 25,   /* what TASK_BATCH says, in 2-3 bytes a task */
  OMPPROF_REC_MPI = 26,                 /* an MPI call's enter or exit (libompprof-mpi.so) */
  OMPPROF_REC_MUTEX_SITE = 27,          /* where a written hold was released (with context) */
  OMPPROF_REC_REGION_BATCH_PACKED = 28, /* regions of known shapes, begin and end, in 3-5 bytes a region */
  OMPPROF_REC_TYPES                     /* one past the last: a reader knows the types below it */
};

#define OMPPROF_REC_VERSION 2u

/* 16 bytes; `size` includes the header and is a multiple of 8.
 * A PAD record may be only 8 bytes (size, type, version); nothing else is read. */
struct ompprof_record_header {
  uint32_t size;
  uint16_t type;       /* enum ompprof_record_type */
  uint16_t version;    /* OMPPROF_REC_VERSION */
  uint32_t thread_seq; /* writer thread's seq (slot owner) */
  uint32_t reserved;
};

/* How the agent's frame walk ended (ompprof_context.walk_stop, low byte). */
enum ompprof_walk_stop {
  OMPPROF_WALK_CONTINUE = 0,  /* the walk stopped at ctx (no unwind row, unsupported rule, bad value,
                                 depth limit, or no walk at all): unwind on from ctx with its snapshot */
  OMPPROF_WALK_COMPLETE = 1,  /* ctx is the outermost frame (return address undefined or 0) */
  OMPPROF_WALK_TASK_EXIT = 2, /* ctx is the last frame inside the current task's exit frame (its caller's
                                 frame would lie past it): what follows is the task's creation context */
};
/* ompprof_context.walk_stop flag: a checking recording (OMPPROF_WALK=check). ctx is then the sampled
 * registers with a plain snapshot, and the frames are all the walk found, ctx's frame included,
 * so that the JVM can compare them with its own unwind of the snapshot. */
#define OMPPROF_WALK_CHECK      0x100u
#define OMPPROF_MAX_WALK_FRAMES 512u

/* One frame the handler walked: its pc (the sampled rip for the first, else a return address) and
 * its sp (the sampled rsp for the first, else the CFA of the frame it called). */
struct ompprof_frame {
  uint64_t pc;
  uint64_t sp;
};

/* Register/stack capture shared by samples and callback records that carry
 * a calling context. The record goes on with frame_count x ompprof_frame, the
 * frames the agent walked with its unwind rows (cfi_table.c, frame_walk.c),
 * innermost first, then the snapshot: `stack_len` bytes of memory starting at
 * address `rsp`, padded to 8. rip, rsp and rbp are where the walk stopped (the
 * captured registers when frame_count is 0), and the snapshot starts there. */
struct ompprof_context {
  uint64_t rip, rsp, rbp;
  uint32_t stack_len;   /* bytes copied */
  uint32_t ctx_flags;   /* enum ompprof_ctx_flags */
  uint32_t frame_count; /* <= OMPPROF_MAX_WALK_FRAMES (+1 with OMPPROF_WALK_CHECK) */
  uint32_t walk_stop;   /* enum ompprof_walk_stop, | OMPPROF_WALK_CHECK */
};
enum ompprof_ctx_flags {
  OMPPROF_CTX_TRUNCATED = 1,  /* stack continued past stack_bytes */
  OMPPROF_CTX_NO_BOUNDS = 2,  /* stack bounds unknown: no snapshot taken */
  OMPPROF_CTX_OFF_STACK = 4,  /* rsp outside the thread's known stack: no snapshot */
  OMPPROF_CTX_SAME_SHAPE = 8, /* task_create, parallel_begin: no snapshot, the thread sent one of this shape before */
  /* task_create only, with OFF_STACK: the encountering task runs on another thread's stack; the creation shares the
   * context of the task this thread runs (a split taskloop's splitting task, which the same task created at the same
   * construct), whose id `shape` holds with OMPPROF_AS_RUNNING_SHAPE set: a shape of its own, with which the thread's
   * next such creations come packed; shape 0: none known */
  OMPPROF_CTX_AS_RUNNING = 16,
};

#define OMPPROF_AS_RUNNING_SHAPE (1ull << 63)

/* OMPT task frame of one ancestor level (ompt_get_task_info). */
struct ompprof_task_level {
  uint64_t exit_frame;
  uint64_t enter_frame;
  uint32_t exit_frame_flags;
  uint32_t enter_frame_flags;
  uint32_t task_flags;  /* ompt_task_flag_t */
  int32_t thread_num;   /* thread number in the level's team */
  uint64_t task_id;     /* tool-assigned (task_data->value), 0 if unknown */
  uint64_t parallel_id; /* tool-assigned (parallel_data->value), 0 if none */
  uint32_t info_result; /* return value of ompt_get_task_info (2 full, 1 partial) */
  uint32_t pad;
};

struct ompprof_parallel_level {
  uint64_t parallel_id;
  uint32_t team_size;
  uint32_t info_result;
};

#define OMPPROF_MAX_LEVELS 16u

enum ompprof_sample_flags {
  OMPPROF_SAMPLE_OMPT_READY = 1,     /* OMPT inquiry functions were available */
  OMPPROF_SAMPLE_UNKNOWN_THREAD = 2, /* slot claimed in the handler: no thread_begin seen */
  OMPPROF_SAMPLE_PAUSED = 4,         /* reserved */
  OMPPROF_SAMPLE_PERF = 8,           /* cpu mode, from the thread's perf cpu-clock event: the weight
                                        is the CPU time the kernel counted since the previous sample */
  OMPPROF_SAMPLE_OUTSIDE = 16,       /* wall mode: the thread was blocked in a system call and was sampled
                                        from outside, without a signal; ctx.rbp is the agent's guess
                                        (the innermost saved frame pointer on the stack), 0 if none */
  OMPPROF_SAMPLE_REPEAT = 32,        /* the thread's previous sample record again (still blocked in the same
                                        call, or the same in all its fields), with this time and weight;
                                        sent as the sample struct alone: no levels, frames or snapshot */
  OMPPROF_SAMPLE_RBX = 64,           /* the snapshot is preceded by rbx at ctx's frame (OMPPROF_RBX_BYTES, after
                                        the frames): code without unwind rows may keep its frame's address there
                                        (OpenBLAS's kernels), which the JVM reads from the machine code */
  OMPPROF_SAMPLE_UPPER = 128,        /* the snapshot (its RING_ALIGN8 bytes) is followed by a second window of
                                        the stack (struct ompprof_upper_window, then its bytes rounded up to 8):
                                        from just below rbx or rbp where it lies above the snapshot's end and
                                        the walk stopped at code without unwind rows, whose frame may be larger
                                        than the snapshot (OpenBLAS's Haswell dgemm kernel keeps 29 KB) */
};

#define OMPPROF_RBX_BYTES 8u

struct ompprof_upper_window {
  uint64_t addr; /* of its first byte */
  uint32_t len;  /* bytes that follow */
  uint32_t pad;
};

/* OMPPROF_REC_SAMPLE payload, followed by task_levels x ompprof_task_level,
 * parallel_levels x ompprof_parallel_level, then ctx's frames and snapshot. */
struct ompprof_sample {
  uint64_t time_ns;   /* CLOCK_MONOTONIC */
  uint64_t weight_ns; /* time this sample stands for: period * (1 + overrun) */
  uint32_t os_tid;
  int32_t omp_thread_num; /* -1 if unknown */
  uint32_t state;         /* ompt_state_t, or 0x102 (undefined) when OMPT is not ready */
  uint32_t flags;         /* enum ompprof_sample_flags */
  uint64_t wait_id;
  uint32_t task_levels;
  uint32_t parallel_levels;
  struct ompprof_context ctx;
};

struct ompprof_thread_begin {
  uint64_t time_ns;
  uint32_t os_tid;
  uint32_t thread_type; /* ompt_thread_t; 0 if unknown */
  uint64_t stack_lo, stack_hi;
  uint32_t slot;
  uint32_t pad;
};

struct ompprof_thread_end {
  uint64_t time_ns;
};

/* followed by the encountering thread's stack snapshot, unless ctx_flags has
 * OMPPROF_CTX_SAME_SHAPE: the thread sent a region or task of this shape before
 * (region-heavy codes open tens of thousands of regions a second from a few
 * dozen contexts) */
struct ompprof_parallel_begin {
  uint64_t time_ns;
  uint64_t parallel_id; /* tool-assigned, unique per recording */
  uint64_t parent_task_id;
  uint64_t codeptr_ra;
  uint64_t enc_exit_frame, enc_enter_frame; /* encountering task's frame */
  uint32_t requested_team_size;
  uint32_t flags; /* ompt_parallel_flag_t */
  uint64_t shape; /* creation-segment identity (see callbacks.c); never 0 */
  struct ompprof_context ctx;
};

struct ompprof_parallel_end {
  uint64_t time_ns;
  uint64_t parallel_id;
  uint64_t task_id;
  uint64_t codeptr_ra;
  uint32_t flags;
  uint32_t pad;
};

struct ompprof_implicit_task {
  uint64_t time_ns;     /* when written: at the begin for an initial task or a region no parallel_begin announced,
                           else when a later record first named the task (which is when it is written) */
  uint64_t parallel_id; /* 0 at scope end (libomp passes no parallel data) */
  uint64_t task_id;
  uint32_t endpoint; /* 1 begin, 2 end */
  uint32_t actual_parallelism;
  uint32_t index;
  uint32_t flags; /* ompt_task_flag_t (initial/implicit) */
};

/* followed by the creating thread's stack snapshot */
struct ompprof_task_create {
  uint64_t time_ns;
  uint64_t parent_task_id;
  uint64_t task_id;
  uint64_t codeptr_ra;
  uint64_t enc_exit_frame, enc_enter_frame;
  uint32_t flags; /* ompt_task_flag_t */
  uint32_t has_dependences;
  uint64_t shape; /* creation-segment identity (see callbacks.c); never 0 */
  struct ompprof_context ctx;
};

struct ompprof_task_schedule {
  uint64_t time_ns;
  uint64_t prior_task_id;
  uint64_t next_task_id;
  uint32_t prior_status; /* ompt_task_status_t */
  uint32_t pad;
};

struct ompprof_sync_region {
  uint64_t time_ns;
  uint64_t parallel_id;
  uint64_t task_id;
  uint64_t codeptr_ra;
  uint32_t kind;     /* ompt_sync_region_t */
  uint32_t endpoint; /* 1 begin, 2 end */
  uint32_t is_wait;  /* 1: sync_region_wait callback, 0: sync_region */
  uint32_t pad;
};

enum ompprof_mutex_event {
  OMPPROF_MUTEX_ACQUIRE = 1,
  OMPPROF_MUTEX_ACQUIRED = 2,
  OMPPROF_MUTEX_RELEASED = 3,
  OMPPROF_MUTEX_LOCK_INIT = 4,
  OMPPROF_MUTEX_LOCK_DESTROY = 5,
  OMPPROF_MUTEX_NEST_ACQUIRED = 6, /* nest_lock scope begin: acquired again */
  OMPPROF_MUTEX_NEST_RELEASED = 7, /* nest_lock scope end: released, still held */
};

/* Which mutex events are written (agent: src/callbacks.c). An uncontended
 * acquisition writes nothing. A thread sampled while waiting (between its
 * acquire and acquired callbacks) writes ACQUIRE, stamped with the wait's
 * first sample, then ACQUIRED at the acquisition and RELEASED at its release
 * (nobody may hold a mutex being handed over to a thread off a CPU: blame
 * charges that waiting to the holds around it); and it marks the mutex, so
 * that whoever held it during the sample writes ACQUIRED (stamped no earlier
 * than the acquisition and no later than the first sample of anyone during
 * the hold) and RELEASED, back to back, at its release. A thread's mutex
 * records are therefore not in time order; each ACQUIRED-RELEASED pair is
 * one hold, each ACQUIRE-ACQUIRED pair one sampled wait. A thread that
 * waited while its mutex was marked (by anyone, or in wall mode by the
 * sampler thread at each tick of its wait) is among those the waiters
 * were waiting for (libomp hands a queuing lock on in order, often to a thread
 * not running): it writes ACQUIRED at the acquisition and its hold at the
 * release. Every written hold is followed by a MUTEX_SITE record, at the same
 * time as its RELEASED. Nested re-entries
 * (NEST_*) are not written. Skipped callbacks are counted in the slot header. */
struct ompprof_mutex {
  uint64_t time_ns;
  uint64_t wait_id;
  uint64_t codeptr_ra;
  uint32_t event; /* enum ompprof_mutex_event */
  uint32_t kind;  /* ompt_mutex_t */
  uint32_t hint;
  uint32_t impl;
};

/* OMPPROF_REC_MUTEX_SITE payload: the calling context in which a hold that
 * was written (ACQUIRED, RELEASED) ended, sent right after its RELEASED, with
 * the same time. Blame charges waiting to it when the holder has no sample
 * inside the hold (a hold of microseconds: a critical that moves two numbers).
 * The context is walked from the agent's frame; the user's part ends at the
 * frame that called the runtime to release (codeptr_ra). As for task
 * creations, a release of a shape the thread sent before carries no stack
 * (ctx.ctx_flags has OMPPROF_CTX_SAME_SHAPE). */
struct ompprof_mutex_site {
  uint64_t time_ns; /* the release: the RELEASED record's time */
  uint64_t wait_id;
  uint64_t task_id;        /* the holding task (ompt_get_task_info); 0 if unknown */
  uint64_t codeptr_ra;     /* the release call's return address in the user's code */
  uint64_t enc_exit_frame; /* the holding task's exit frame: where its own frames end */
  uint64_t shape;          /* the release site's identity (as a creation's); never 0 */
  struct ompprof_context ctx;
};

struct ompprof_control_tool {
  uint64_t time_ns;
  uint64_t modifier;
  uint64_t codeptr_ra;
  uint32_t command;
  uint32_t pad;
};

struct ompprof_work {
  uint64_t time_ns;
  uint64_t parallel_id;
  uint64_t task_id;
  uint64_t count;
  uint64_t codeptr_ra;
  uint32_t work_type; /* ompt_work_t */
  uint32_t endpoint;
};

/* OMPPROF_REC_TASK_BATCH payload, followed by count x ompprof_task_batch_entry:
 * explicit task creations of a shape the thread already sent with a stack
 * (ompprof_task_create), batched so that a million tasks are a few thousand
 * records. time_ns is when the batch was written. Earlier agents wrote these;
 * this one writes OMPPROF_REC_TASK_BATCH_PACKED, and readers take both. */
struct ompprof_task_batch {
  uint64_t time_ns;
  uint32_t count;
  uint32_t pad;
};

struct ompprof_task_batch_entry {
  uint64_t task_id;
  uint64_t parent_task_id;
  uint64_t shape;
};

#define OMPPROF_MAX_TASK_BATCH 64u

/* OMPPROF_REC_TASK_BATCH_PACKED payload, followed by `bytes` bytes holding
 * `count` (1..OMPPROF_MAX_TASK_BATCH) packed entries, then zeros up to the
 * record's 8-byte size. The same creations as OMPPROF_REC_TASK_BATCH in 2 to
 * 3 bytes each instead of 24: task-recursive codes create tasks faster than a
 * busy JVM drains 24 bytes apiece. An entry is
 *   varint(((task_id - previous task_id) << 3) | shape_code)
 *   varint(zigzag(parent_task_id - previous parent_task_id))
 *   u64 shape (little-endian), only when shape_code is OMPPROF_PACKED_SHAPES
 * where the previous task_id starts at base_task_id and the previous parent
 * at 0; task ids grow by 1 to 2^61-1 from one entry to the next. The batch
 * keeps its OMPPROF_PACKED_SHAPES most recent shapes, all 0 at its start,
 * the latest first: a shape_code below that count names one of them, which
 * moves to the front; OMPPROF_PACKED_SHAPES brings a new one to the front and
 * drops the last. (A recursion cycles through a few shapes: its creation
 * sites, each reached directly or from inside a taskwait.) A varint is base
 * 128, low group first, at most 10 bytes; zigzag(d) = (d << 1) ^ (d >> 63). */
struct ompprof_task_batch_packed {
  uint64_t time_ns;
  uint32_t count;
  uint32_t bytes;
  uint64_t base_task_id;
};

#define OMPPROF_PACKED_SHAPES         7u  /* recent shapes an entry can name */
#define OMPPROF_MAX_PACKED_TASK_ENTRY 28u /* two 10-byte varints and a shape */

/* OMPPROF_REC_REGION_BATCH_PACKED payload, followed by `bytes` bytes holding
 * `count` (1..OMPPROF_MAX_TASK_BATCH) packed entries, then zeros up to the
 * record's 8-byte size. Each entry is a parallel region this thread opened
 * in a context whose shape it sent before, and ended: what its
 * OMPPROF_REC_PARALLEL_BEGIN (same shape, so no stack) and
 * OMPPROF_REC_PARALLEL_END would say that the profile reads, in 3 to 5 bytes
 * instead of 168 (a time step of short loops opens a region every
 * microsecond or two, and the two records were a third of what recording
 * added to each). An entry is a packed task batch's entry, with the region's
 * parallel_id for the task's id and its encountering task for the parent,
 * followed by
 *   varint(zigzag(end_ns - previous end_ns))
 * where the previous end starts at base_end_ns. The region's call site
 * (codeptr_ra) is the one of the PARALLEL_BEGIN that sent its shape; its
 * begin time is not kept. time_ns is when the batch was written. */
struct ompprof_region_batch_packed {
  uint64_t time_ns;
  uint32_t count;
  uint32_t bytes;
  uint64_t base_parallel_id;
  uint64_t base_end_ns;
};

#define OMPPROF_MAX_PACKED_REGION_ENTRY 38u /* a task entry and a 10-byte varint */

struct ompprof_masked {
  uint64_t time_ns;
  uint64_t parallel_id;
  uint64_t task_id;
  uint64_t codeptr_ra;
  uint32_t endpoint;
  uint32_t pad;
};

enum ompprof_module_flags {
  OMPPROF_MOD_MAIN = 1,    /* the main executable */
  OMPPROF_MOD_VDSO = 2,    /* image inline: image_len bytes follow the path */
  OMPPROF_MOD_FD_HELD = 4, /* agent holds an open fd to the file (fd below) */
  OMPPROF_MOD_NO_FILE = 8, /* could not open/stat the file */
  OMPPROF_MOD_AGENT = 16,  /* libompprof itself */
};

struct ompprof_segment {
  uint64_t vaddr; /* p_vaddr */
  uint64_t memsz;
  uint64_t offset; /* p_offset */
  uint64_t filesz;
  uint32_t flags; /* p_flags */
  uint32_t pad;
};

#define OMPPROF_MAX_SEGMENTS 16u
#define OMPPROF_MAX_BUILD_ID 40u

/* OMPPROF_REC_MODULE payload, followed by segment_count x ompprof_segment,
 * path_len bytes of path (no NUL), then image_len bytes of inline image
 * (vDSO only), padded to 8. */
struct ompprof_module {
  uint64_t time_ns;
  uint64_t module_id;    /* agent-assigned, unique per recording */
  uint64_t load_bias;    /* dlpi_addr: runtime address = vaddr + load_bias */
  uint64_t eh_frame_hdr; /* p_vaddr of PT_GNU_EH_FRAME, 0 if none */
  uint64_t dev, ino, file_size;
  int64_t mtime_ns;
  uint32_t flags; /* enum ompprof_module_flags */
  int32_t fd;     /* held fd in the program, -1 if none */
  uint32_t segment_count;
  uint32_t path_len;
  uint32_t image_len;
  uint32_t build_id_len;
  uint8_t build_id[OMPPROF_MAX_BUILD_ID];
};

struct ompprof_module_unload {
  uint64_t time_ns;
  uint64_t module_id;
};

/* written once, by the thread that ran ompt initialize */
struct ompprof_agent_info {
  uint64_t time_ns;
  uint64_t sample_period_ns;
  uint32_t pid;
  uint32_t ompt_version; /* omp_version from ompt_start_tool */
  uint32_t mode;
  uint32_t rate_hz;
  uint32_t stack_bytes;
  uint32_t pad;
  uint64_t callbacks_registered; /* bit i set: callback (ompt_callbacks_t) i registered with ompt_set_always */
};

struct ompprof_agent_end {
  uint64_t time_ns;
  uint64_t timers_failed; /* timer_create/settime failures */
  uint64_t threads_seen;
};

/* ---------- device activity (OMPT target callbacks, host clock) ---------- */

enum ompprof_device_event {
  OMPPROF_DEVICE_INIT = 1,
  OMPPROF_DEVICE_FINALIZE = 2,
  OMPPROF_DEVICE_LOAD = 3,
};

enum ompprof_device_flags {
  OMPPROF_DEVICE_TRACING = 1, /* init: the device offers OMPT tracing and it was started */
};

#define OMPPROF_DEVICE_TYPE_LEN 32u

struct ompprof_device {
  uint64_t time_ns;
  uint64_t module_id;   /* load: ompt module id */
  uint64_t host_addr;   /* load: host address of the image */
  uint64_t device_addr; /* load: device address it was loaded at */
  uint64_t bytes;       /* load: image size */
  int32_t device_num;
  uint32_t event; /* enum ompprof_device_event */
  uint32_t flags; /* enum ompprof_device_flags */
  uint32_t pad;
  char type[OMPPROF_DEVICE_TYPE_LEN]; /* init: device type, NUL-padded */
};

/* Begin records are followed by the encountering thread's stack snapshot;
 * end records carry an empty context. */
struct ompprof_target {
  uint64_t time_ns;
  uint64_t target_id; /* tool-assigned (target_data->value), unique per recording */
  uint64_t task_id;   /* encountering task */
  uint64_t codeptr_ra;
  uint64_t enc_exit_frame, enc_enter_frame; /* encountering task's frame (begin only) */
  int32_t device_num;
  uint32_t kind;     /* ompt_target_t */
  uint32_t endpoint; /* 1 begin, 2 end */
  uint32_t pad;
  struct ompprof_context ctx;
};

struct ompprof_target_submit {
  uint64_t time_ns;
  uint64_t target_id;
  uint64_t host_op_id; /* tool-assigned, unique per recording */
  uint32_t requested_num_teams;
  uint32_t endpoint;
};

struct ompprof_target_data_op {
  uint64_t time_ns;
  uint64_t target_id;
  uint64_t host_op_id;
  uint64_t src_addr;
  uint64_t dest_addr;
  uint64_t bytes;
  uint64_t codeptr_ra;
  int32_t src_device_num;
  int32_t dest_device_num;
  uint32_t optype; /* ompt_target_data_op_t */
  uint32_t endpoint;
};

/* OMPPROF_REC_DEVICE_TRACE payload, followed by count x
 * ompprof_device_trace_entry: records of one completed OMPT trace buffer. */
enum ompprof_trace_kind {
  OMPPROF_TRACE_TARGET = 1,
  OMPPROF_TRACE_KERNEL = 2,
  OMPPROF_TRACE_DATA_OP = 3,
};

struct ompprof_device_trace {
  uint64_t time_ns; /* host time the buffer was written */
  int32_t device_num;
  uint32_t count;
};

struct ompprof_device_trace_entry {
  uint64_t start_ns; /* device clock */
  uint64_t end_ns;   /* device clock; == start_ns when the record has no end */
  uint64_t target_id;
  uint64_t host_op_id; /* 0 for target records */
  uint64_t bytes;      /* data ops */
  uint32_t kind;       /* enum ompprof_trace_kind */
  uint32_t optype;     /* data ops: ompt_target_data_op_t */
};

#define OMPPROF_MAX_DEVICE_TRACE 128u

struct ompprof_device_clock {
  uint64_t host_ns;
  uint64_t device_ns;
  int32_t device_num;
  uint32_t pad;
};

/* ---------- MPI calls (the companion library libompprof-mpi.so, src/mpi_wrap.c) ----------
 * The companion interposes on MPI's profiling interface: its MPI_X calls PMPI_X between an
 * enter and an exit record, written into the calling thread's event ring by the agent
 * (src/mpi.c). The agent hands its writer over at OMPT initialize: it looks up
 * OMPPROF_MPI_ATTACH_SYMBOL in the global scope (the companion is preloaded) and calls it with
 * OMPPROF_MPI_ABI and the writer, void (*)(const struct ompprof_mpi *). Until then, or without
 * the agent, the companion only passes calls through. */
#define OMPPROF_MPI_ATTACH_SYMBOL "ompprof_mpi_attach"
#define OMPPROF_MPI_ABI           1u

enum ompprof_mpi_call {
  OMPPROF_MPI_CALL_OTHER = 0,
  OMPPROF_MPI_CALL_INIT = 1, /* MPI_Init and MPI_Init_thread */
  OMPPROF_MPI_CALL_FINALIZE = 2,
  OMPPROF_MPI_CALL_ALLREDUCE = 3,
  OMPPROF_MPI_CALL_REDUCE = 4,
  OMPPROF_MPI_CALL_BCAST = 5,
  OMPPROF_MPI_CALL_BARRIER = 6,
  OMPPROF_MPI_CALL_ALLGATHER = 7,
  OMPPROF_MPI_CALL_ALLGATHERV = 8,
  OMPPROF_MPI_CALL_ALLTOALL = 9,
  OMPPROF_MPI_CALL_ALLTOALLV = 10,
  OMPPROF_MPI_CALL_GATHER = 11,
  OMPPROF_MPI_CALL_SCATTER = 12,
  OMPPROF_MPI_CALL_SEND = 13,
  OMPPROF_MPI_CALL_RECV = 14,
  OMPPROF_MPI_CALL_ISEND = 15,
  OMPPROF_MPI_CALL_IRECV = 16,
  OMPPROF_MPI_CALL_WAIT = 17,
  OMPPROF_MPI_CALL_WAITALL = 18,
  OMPPROF_MPI_CALL_WAITANY = 19,
  OMPPROF_MPI_CALL_SENDRECV = 20,
};
#define OMPPROF_MPI_CALLS 21u /* call kinds, OTHER included */

/* OMPPROF_MPI_CLOCK: not a call but one measure of this rank's clock against rank 0's of
 * MPI_COMM_WORLD, taken by ping-pong as MPI_Init returns (call INIT) and as MPI_Finalize begins
 * (call FINALIZE): time_ns is the midpoint of the best round trip on this rank's clock, bytes
 * rank 0's clock when it answered, seq that round trip's length in ns. */
enum ompprof_mpi_endpoint { OMPPROF_MPI_ENTER = 1, OMPPROF_MPI_EXIT = 2, OMPPROF_MPI_CLOCK = 3 };

/* OMPPROF_REC_MPI payload. Ranks are ranks in `comm`; -1 where none applies. */
struct ompprof_mpi {
  uint64_t time_ns; /* CLOCK_MONOTONIC, as samples */
  uint64_t comm;    /* the communicator's Fortran handle (MPI_Comm_c2f) + 1; 0: none (Init, Wait*) */
  uint64_t bytes;   /* this rank's send (enter) or received (exit of Recv, Sendrecv) bytes */
  uint64_t seq;     /* collectives: this rank's collectives on comm before this one; else 0 */
  uint64_t request; /* exit of Isend/Irecv: the request made; enter of Wait: the one waited for; else 0 */
  int32_t peer;     /* destination, source (exit: the actual one) or root */
  int32_t source;   /* exit of Sendrecv: the source it received from; else -1 */
  int32_t tag;
  uint32_t comm_size; /* 0 when comm is 0 */
  uint32_t count;     /* Waitall, Waitany: requests */
  uint16_t call;      /* enum ompprof_mpi_call */
  uint8_t endpoint;   /* enum ompprof_mpi_endpoint */
  uint8_t flags;      /* 0 */
};

#endif
