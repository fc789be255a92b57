/*
 * State shared by the agent's translation units. Everything here is created
 * once (ompt_start_tool / initialize) and then read from callbacks and from
 * the SIGPROF handler, so fields the handler reads are accessed with
 * __atomic builtins (relaxed unless the comment says otherwise).
 */
#ifndef OMPPROF_AGENT_H
#define OMPPROF_AGENT_H

#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include <omp-tools.h>

#include "ompprof_wire.h"
#include "ring.h"
#include "mutex_table.h"
#include "task_pack.h"

/* Reasons not to sample; one word so the handler decides with one load. */
enum {
  GATE_DISABLED = 1, /* finalized */
  GATE_PAUSED = 2,   /* omp_control_tool pause */
  GATE_STOPPED = 4,  /* omp_control_tool end */
};

/* Agent-private per-slot state. The thread that owns the slot is the only
 * writer, and the handler runs on that same thread, so plain fields plus
 * signal fences suffice; the struct is cache-line aligned because
 * `in_handler` is written on every sample. */
#define SHAPE_CACHE 256u
#define HELD_MAX 8u /* mutexes one thread holds at once that are tracked (more: recorded always) */

struct priv {
  struct ompprof_slot_header *slot;
  struct ring sample;
  struct ring event;
  uint64_t stack_lo, stack_hi; /* hi == 0: unknown */
  timer_t timer;
  int perf_fd;         /* has_timer == TIMER_PERF: the thread's cpu-clock perf event */
  uint64_t perf_count; /* the event's count (CPU ns) at the previous sample */
  uint32_t index;
  uint32_t thread_seq;
  uint32_t os_tid;
  uint32_t thread_type;
  uint8_t has_timer; /* TIMER_NONE, TIMER_POSIX or TIMER_PERF */
  uint8_t unknown_thread; /* claimed by the handler, no thread_begin since */
  uint8_t end_deferred;   /* thread_end seen, slot kept OWNED for finalize */
  uint8_t in_handler;
  /* Creation shapes this thread has sent with a full snapshot (direct-mapped;
   * callbacks only). A miss only costs a snapshot, never a wrong context. */
  uint64_t shapes[SHAPE_CACHE];
  /* Creations of known shapes waiting to be written as one record. */
  struct task_pack tasks;
  /* Mutex acquisition in progress (mutex_acquire .. mutex_acquired; 0: none),
   * read by the handler, which marks it waited for (mutex_table.h) and notes
   * the wait's first sample time. */
  uint64_t acq_id;
  uint64_t acq_first_ns;
  uint64_t acq_codeptr;
  uint32_t acq_kind, acq_hint, acq_impl;
  /* Mutexes held, innermost last (held[0..held_n)). */
  uint32_t held_n;
  struct held {
    uint64_t wait_id;
    uint64_t gen;          /* mutex_gen() at acquisition */
    uint64_t first_own_ns; /* the handler: this thread's first sample in the hold */
    uint64_t start_ns;     /* non-zero: ACQUIRED was written, at this time */
  } held[HELD_MAX];
} __attribute__((aligned(64)));

enum { TIMER_NONE = 0, TIMER_POSIX = 1, TIMER_PERF = 2 };

/* TLS is only ever a pointer (initial-exec: the library is dlopen'ed and the
 * general-dynamic model may allocate on first access, i.e. malloc in a
 * signal handler). Two small values are sentinels. */
#define PRIV_CLAIMING ((struct priv *)1) /* a claim is in progress on this thread */
#define PRIV_ENDED ((struct priv *)2)    /* thread_end ran: never claim from the handler */
#define PRIV_VALID(p) ((uintptr_t)(p) > 2u)

extern _Thread_local struct priv *ompprof_tls __attribute__((tls_model("initial-exec")));

struct agent {
  struct ompprof_region_header *hdr;
  uint8_t *base;
  uint64_t slot_size;
  uint64_t sample_ring_size, event_ring_size;
  uint64_t period_ns;
  uint32_t slot_count;
  uint32_t stack_bytes;
  uint32_t mode;
  uint32_t rate_hz;
  unsigned omp_version;
  int debug;

  int attached;  /* 1 once mapped by the attached process; 0 in a fork child */
  int forking;   /* forks in progress (atfork prepare .. parent/child) */
  uint32_t pid;  /* the attached process */
  uint32_t gate; /* GATE_* bits */
  int ompt_ready;
  int signo;        /* the sampling signal */
  int sampling_off; /* 1: the program owns the signal, no timer is armed */
  int cpu_timers_only; /* cpu mode: POSIX CPU-clock timers, no perf events (OMPPROF_REGION_CPU_TIMERS) */

  ompt_set_callback_t set_callback;
  ompt_get_state_t get_state;
  ompt_get_task_info_t get_task_info;
  ompt_get_parallel_info_t get_parallel_info;
  ompt_get_thread_data_t get_thread_data;

  struct priv *privs; /* slot_count entries */

  uint64_t next_parallel_id; /* fetch_add; ids start at 1 */
  uint64_t next_task_id;
  uint64_t next_device_op_id; /* target and host-op ids (device.c) */
  uint64_t timers_failed;
  uint64_t threads_seen;
  uint64_t callbacks_always; /* bit i: callback i registered with ompt_set_always */
};

extern struct agent ompprof_g;

/* Executable ranges of the loaded objects, sorted; replaced (never changed in
 * place) by modules_rescan, so readers need no lock. */
struct code_ranges {
  uint32_t n;
  struct {
    uint64_t lo, hi;
  } r[];
};
const struct code_ranges *modules_code_ranges(void);

static inline uint64_t now_ns(void) /* signal-safe */
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint32_t raw_syscall0(long nr) /* signal-safe */
{
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "0"(nr) : "rcx", "r11", "memory");
  return (uint32_t)r;
}

/* False in a fork child. libomp's own atfork child handler was registered
 * before ours, runs first and already fires callbacks (thread_begin) in the
 * child, so the child cannot wait for our handler: while a fork is in
 * flight the pid is compared instead (one syscall, only in that window). */
static inline int agent_attached(void) /* signal-safe */
{
  if (!__atomic_load_n(&ompprof_g.attached, __ATOMIC_ACQUIRE))
    return 0;
  if (__builtin_expect(__atomic_load_n(&ompprof_g.forking, __ATOMIC_ACQUIRE) != 0, 0))
    return raw_syscall0(SYS_getpid) == ompprof_g.pid;
  return 1;
}

static inline void fill_header(struct ompprof_record_header *h, uint16_t type, uint32_t size,
                               uint32_t thread_seq) /* signal-safe */
{
  h->size = size;
  h->type = type;
  h->version = OMPPROF_REC_VERSION;
  h->thread_seq = thread_seq;
  h->reserved = 0;
}

/* slots.c */
struct priv *slot_claim(void);                 /* signal-safe */
struct priv *priv_for_callback(void); /* claims lazily (and arms a timer); NULL when not profiling */
void signal_check(void);              /* notes a replaced handler or a blocked signal (not in a handler) */
struct priv *priv_for_agent(void);    /* claims without a timer, ignoring the gate (finalize) */
void priv_fetch_bounds(struct priv *p);
void slot_end(struct priv *p);
void slot_end_deferred(void);

/* timers.c */
void timer_arm(struct priv *p);
void timer_disarm(struct priv *p);
void timer_forget_in_child(void);
int timer_is_perf_signal(const struct priv *p, const siginfo_t *si); /* signal-safe */
uint64_t timer_perf_elapsed(struct priv *p);                        /* signal-safe */

/* handler.c */
int handler_install(void);
void handler_quiesce(void);

/* modules.c */
int modules_init(void);
void modules_rescan(struct priv *p, int force);

/* callbacks.c */
void callbacks_register(void);
void callbacks_flush_tasks(struct priv *p);

/* mpi.c */
void mpi_connect(int debug); /* hands the MPI companion library, if loaded, its record writer */

/* device.c */
void device_register(ompt_set_callback_t set, uint64_t *always, int debug);

#endif
