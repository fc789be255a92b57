/*
 * One recorded thread's state (a slot): what its signal handler, its callbacks
 * and the wall sampler each own, and the thread-local pointer to it.
 */
#ifndef OMPPROF_THREAD_STATE_H
#define OMPPROF_THREAD_STATE_H

#include <stdint.h>
#include <time.h>

#include "cfi_table.h"
#include "frame_walk.h"
#include "ompprof_wire.h"
#include "ring.h"
#include "switch_watch.h"
#include "task_pack.h"

/* What the wall sampler needs to sample a blocked thread from outside: the
 * OpenMP state and task levels the thread published at its last sample or
 * implicit task begin (seqlock: `seq` odd while the thread writes). */
enum view_made { VIEW_MADE_OTHER, VIEW_MADE_KNOWN };
struct wall_view {
  uint32_t seq;
  uint32_t state;
  uint64_t wait_id;
  uint64_t frame0; /* level 0's ompt_frame_t in the runtime, read live by the sampler */
  int32_t thread_num;
  uint32_t task_levels, parallel_levels;
  uint32_t made; /* VIEW_MADE_KNOWN: written last by a task switch from what the callback knew (wall.c) */
  uint8_t levels[OMPPROF_MAX_LEVELS * (sizeof(struct ompprof_task_level) + sizeof(struct ompprof_parallel_level))];
};

/* The team a thread's current implicit task belongs to, as a view of one of its explicit tasks
 * needs it (wall.c); known from an implicit task's begin to its end, or from the runtime. */
struct wall_team {
  uint64_t parallel_id;
  int32_t thread_num;
  uint32_t known;
  uint32_t switches; /* views made since the runtime was last asked */
};

/* The tasks a thread suspended to run another (a task scheduling point: a taskwait, a creation, a barrier) or to run
 * the implicit task of a region it opened, innermost last, with their views' flags and frames (and for a region its
 * team): the task a completion or a region's end resumes gets its view back (wall.h). Tied tasks nest on a thread's
 * stack; a resumed task not found among the innermost entries (an untied task resumed elsewhere) gets no view, as
 * every resumed task had none before. */
#define WALL_SUSPENDED        64u         /* a recursion's tasks nest on a thread as deep as the recursion */
#define WALL_RESUME_LOOK      4u          /* the innermost entries a resumed task is looked for among */
#define WALL_SUSPENDED_REGION 0x80000000u /* in flags: suspended for a region it opened, its team kept */
struct wall_suspended {
  uint64_t task[WALL_SUSPENDED];  /* their ids (a serialized region's end names its task by another data) */
  uint32_t flags[WALL_SUSPENDED]; /* their views' task flags, 0: no view of them */
  uint64_t frame[WALL_SUSPENDED]; /* their views' ompt_frame_t */
  uint64_t parallel_id[WALL_SUSPENDED];
  int32_t thread_num[WALL_SUSPENDED];
  uint32_t depth; /* may exceed WALL_SUSPENDED: those beyond are counted, not kept */
};

/* Agent-private per-slot state, in three parts by who may touch them: the
 * signal handler (and the thread's own callbacks, which the handler may
 * interrupt), the thread's callbacks alone, and the wall sampler thread. The
 * thread that owns the slot is the only writer of `sig` and `cb`, and the
 * handler runs on that same thread, so plain fields plus signal fences
 * suffice; the struct is cache-line aligned because `sig.in_handler` is
 * written on every sample. */
#define SHAPE_CACHE 256u
#define HELD_MAX    8u /* mutexes one thread holds at once that are tracked (more: recorded always) */

/* TIMER_MOVED: cpu mode's CPU-clock timer that replaced the thread's perf event
 * (switch_watch.h), made by the handler with raw system calls: kernel id in sig.moved_timer */
enum { TIMER_NONE = 0, TIMER_POSIX = 1, TIMER_PERF = 2, TIMER_WALL = 3, TIMER_MOVED = 4 };

/* sig.in_handler: who writes the thread's sample ring right now (the ring has one producer at a time) */
enum { RING_FREE = 0, RING_HANDLER = 1, RING_WALL = 2 };

/* What the signal handler reads or writes (everything reachable from it is async-signal-safe). */
/* A sample this long from its os_tid on (the levels and frames of a thread waiting in the runtime are about 300 bytes)
 * is kept by the handler for its next one to repeat. */
#define HANDLER_REPEAT_BYTES 1024u

/* Serialized regions the program's code runs the bodies of itself, open on the thread (direct_bodies.h): their
 * implicit tasks' frames, the exit frame libomp reports for them and the one it means. Written by the thread's
 * callbacks, read by its handler and by the wall sampler. */
#define SERIALIZED_OPEN 4u
struct serialized_exits {
  uint32_t n;                               /* entries in use; an entry is whole before n counts it */
  uint64_t pending_region;                  /* parallel_begin's: the region whose implicit task is to come, */
  uint64_t pending_reported, pending_meant; /* and its frames */
  uint64_t region[SERIALIZED_OPEN], frame[SERIALIZED_OPEN], reported[SERIALIZED_OPEN], meant[SERIALIZED_OPEN];
};

struct handler_state {
  struct ring sample;
  struct serialized_exits serialized;
  struct cfi_memo memo;        /* the samples' walks' */
  uint64_t stack_lo, stack_hi; /* hi == 0: unknown */
  timer_t timer;
  int perf_fd;            /* has_timer == TIMER_PERF: the thread's cpu-clock perf event */
  uint64_t perf_count;    /* the event's count (CPU ns) at the previous sample */
  uint8_t has_timer;      /* TIMER_* */
  uint8_t unknown_thread; /* claimed by the handler, no thread_begin since */
  uint8_t end_deferred;   /* thread_end seen, slot kept OWNED for finalize */
  uint8_t in_handler;     /* RING_* */
  /* The handler's last sample without a snapshot, from its os_tid on (0: none), and the sample ring's record count
   * after it: a sample the same in all of that, with nothing written since, goes as a repeat of it (handler.c). */
  uint32_t last_len;
  uint64_t last_records;
  uint8_t last[HANDLER_REPEAT_BYTES];
  /* cpu mode: the thread's context-switch rate while on its perf event, and what replaced the
   * event if it moved (TIMER_MOVED): the timer's kernel id, and the event's old descriptor (its
   * last signal may still come) */
  struct switch_watch watch;
  int moved_timer, moved_fd;
  /* Mutex acquisition in progress (mutex_acquire .. mutex_acquired; 0: none),
   * read by the handler, which marks it waited for (mutex_table.h) and notes
   * the wait's first sample time. */
  uint64_t acq_id;
  uint64_t acq_first_ns;
  /* Mutexes held, innermost last (held[0..held_n)). */
  uint32_t held_n;
  struct held {
    uint64_t wait_id;
    uint64_t gen;          /* mutex_gen() at acquisition */
    uint64_t first_own_ns; /* the handler: this thread's first sample in the hold */
    uint64_t start_ns;     /* non-zero: ACQUIRED was written, at this time, and RELEASED will be */
  } held[HELD_MAX];
};

/* A creation's walk kept to be replayed (callbacks.c: creation_replays). The words the walk read are
 * kept as two runs, so that each is checked in a loop of a few instructions: [0, abs) must hold val,
 * [abs, reads) val plus sp (saved rbp values: stack addresses). */
struct creation_walk {
  const void *tables; /* the row set it walked with; NULL: nothing kept */
  uint64_t rip, codeptr, exit_off, bp_off, max_off, shape;
  int bp_matters;
  uint32_t reads, abs;
  uint32_t first;               /* the read that last told a creation apart from this walk: looked at first */
  uint32_t off[WALK_LOG_READS]; /* from sp */
  uint64_t val[WALK_LOG_READS];
};

/* The last walks of a kind of creation, by call site: a time step opens its
 * regions at a few dozen sites in turn (LULESH: 34), and a recursion's
 * sites take turns in several contexts (fib's two tasks, each created from
 * either task's body). A site's walks share a set of CREATION_WAYS. */
#define CREATION_SETS 16u
#define CREATION_WAYS 4u
struct creation_walks {
  struct creation_walk walk[CREATION_SETS][CREATION_WAYS];
  uint8_t next[CREATION_SETS]; /* the way a set's next new walk takes */
  uint8_t last[CREATION_SETS]; /* the way a set's last replayed creation matched */
};

/* Where an undeferred task's creating frame lies, by the call site that created it (direct_bodies.h): the
 * runtime's frame that saved the creating code's rbp, from the callback's sp, and the creating frame's size. */
#define UNDEFERRED_SITES 4u
struct undeferred_site {
  uint64_t codeptr;
  uint32_t saved_off, frame_size;
};

/* What only the thread's own callbacks touch: never read by the handler. */
struct callback_state {
  struct ring event;
  /* Creation shapes this thread has sent with a full snapshot. A miss only
   * costs a snapshot, never a wrong context. */
  uint64_t shapes[SHAPE_CACHE];
  /* Creations of known shapes waiting to be written as one record. */
  struct task_pack tasks;
  /* Regions of known shapes this thread ended, waiting to be written as one
   * record (those still open are in the slot's header, for the JVM to see). */
  struct task_pack regions;
  struct cfi_memo memo; /* the creation contexts' walks' */
  struct creation_walks task_walks, region_walks, release_walks;
  struct undeferred_site undeferred[UNDEFERRED_SITES];
  uint32_t undeferred_next; /* the site a new one replaces */
  /* The acquisition in progress's own details, for its ACQUIRED record, and
   * mutex_gen() when it began to wait. */
  uint64_t acq_codeptr, acq_gen;
  uint32_t acq_kind, acq_hint, acq_impl;
  /* The current implicit task's record, written only once a record refers to
   * the task (callbacks_task_referenced): a sample carries its task's region
   * itself, so a region's workers otherwise write nothing at its start. */
  struct ompprof_implicit_task implicit;
  int implicit_pending;
  /* The thread's block of task ids: the last one given out, and the block's last. */
  uint64_t task_id_last, task_id_end;
  struct wall_team team;           /* wall mode: the team the thread's tasks run in, for their views */
  struct wall_suspended suspended; /* wall mode: the tasks a completion or a region's end may resume */
};

/* What /proc/self/task/TID/syscall says of a thread blocked in a system call. */
struct blocked {
  long nr;
  uint64_t sp, pc;
};

/* The wall sampler thread's (wall.c), and what it hands the handler. */
struct wall_state {
  int fd;                  /* has_timer == TIMER_WALL: /proc/self/task/TID/syscall, read by the wall sampler */
  int was_blocked;         /* the sampler's own: blocked at its previous look, not seen to run since */
  uint64_t cpu_blocked;    /* the sampler's own: the thread's CPU time when it was seen blocked */
  struct blocked blocked;  /* the sampler's own: the call of its last sample from outside, */
  uint64_t blocked_exit;   /* and its task's exit frame then */
  uint64_t blocked_pc;     /* the sampler's last signal went to the thread seen blocked in the call made there (the
                            * user pc after its syscall instruction); 0: it went to a thread seen running */
  int cpu_fd;              /* the thread's perf cpu-clock event, which samples it while it runs; -1: none */
  uint64_t last_ns;        /* when the thread's latest sample was taken: the next one stands for the time since */
  uint64_t cpu_sampled_ns; /* handler -> sampler: when its cpu-clock event last sampled it (it ran then) */
  int pending;             /* sampler -> handler: a signal of the sampler's is on its way (SIGPROF does not queue) */
  uint64_t sent_ns;        /* sampler -> handler: the latest tick that found the thread where that signal samples it */
  uint8_t *last;           /* the sampler's own: its last sample of the thread from outside (a whole record) */
  uint32_t last_size;      /* 0: none since the thread last ran */
  uint32_t last_seq;       /* the sampler's own: the view's seq at that sample */
  uint64_t last_records;   /* the sampler's own: the sample ring's record count after that sample (or its repeat) */
  struct wall_view view;
};

struct priv {
  /* Fixed from the claim on. */
  struct ompprof_slot_header *slot;
  uint32_t index;
  uint32_t thread_seq;
  uint32_t os_tid;
  uint32_t thread_type;
  struct handler_state sig;
  struct callback_state cb;
  struct wall_state wall;
} __attribute__((aligned(64)));

/* TLS is only ever a pointer (initial-exec: the library is dlopen'ed and the
 * general-dynamic model may allocate on first access, i.e. malloc in a
 * signal handler). Two small values are sentinels. */
#define PRIV_CLAIMING ((struct priv *)1) /* a claim is in progress on this thread */
#define PRIV_ENDED    ((struct priv *)2) /* thread_end ran: never claim from the handler */
#define PRIV_VALID(p) ((uintptr_t)(p) > 2u)

extern _Thread_local struct priv *ompprof_tls __attribute__((tls_model("initial-exec")));

#endif
