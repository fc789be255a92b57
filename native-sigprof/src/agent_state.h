/*
 * The agent's one global state, created once (ompt_start_tool / initialize)
 * and then read from callbacks and from the SIGPROF handler, so fields the
 * handler reads are accessed with __atomic builtins (relaxed unless the
 * comment says otherwise). Defined in agent_state.c.
 */
#ifndef OMPPROF_AGENT_STATE_H
#define OMPPROF_AGENT_STATE_H

#include <stdint.h>
#include <sys/syscall.h>

#include <omp-tools.h>

#include "thread_state.h"

/* Reasons not to sample; one word so the handler decides with one load. */
enum {
  GATE_DISABLED = 1,     /* finalized */
  GATE_PAUSED = 2,       /* omp_control_tool pause */
  GATE_STOPPED = 4,      /* omp_control_tool end */
  GATE_SIGNAL_TAKEN = 8, /* the program set the sampling signal's disposition (signal_guard.c) */
};

enum { WALK_ON = 0, WALK_OFF = 1, WALK_CHECK = 2 };

struct agent {
  struct ompprof_region_header *hdr;
  uint8_t *base;
  int shm_fd; /* the region file, kept open: rings reserve their pages in it as they first fill */
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
  int started_early;   /* preloaded: started at the program's start, before the runtime's tool initialize */
  int signo;           /* the sampling signal */
  int sampling_off;    /* 1: the program owns the signal, no timer is armed */
  int cpu_timers_only; /* cpu mode: POSIX CPU-clock timers, no perf events (OMPPROF_REGION_CPU_TIMERS) */
  int wall_sampler;    /* wall mode: the sampler thread of wall.c runs */
  int wall_cpu_clock;  /* wall mode: running threads sampled by their perf cpu-clock events (OMPPROF_WALL_CPU=on;
                          else by the sampler's signals) */
  int walk;            /* WALK_*: the handler's frame walk (OMPPROF_WALK=off|check, for tests and benchmarks) */
  /* cpu mode: context switches per CPU-second above which a thread leaves its perf event for a
   * CPU-clock timer (switch_watch.h; OMPPROF_CPU_SWITCHES=N, 0: never) */
  uint32_t cpu_switch_limit;

  ompt_set_callback_t set_callback;
  ompt_get_state_t get_state;
  ompt_get_task_info_t get_task_info;
  uint32_t task_frame_layout; /* enum ompprof_task_frame (wall.c): whether a task's frame is found from its data */
  ompt_get_parallel_info_t get_parallel_info;
  ompt_get_thread_data_t get_thread_data;

  struct priv *privs; /* slot_count entries */

  uint64_t timers_failed;
  uint64_t threads_seen;
  uint64_t callbacks_always; /* bit i: callback i registered with ompt_set_always */
  /* What every thread's callbacks increment, on a cache line of its own: next to the fields
   * every callback reads (the inquiry functions, the slots, attached), each increment made the
   * other cores miss them (task-heavy programs create millions of tasks a second on every
   * core). fetch_add; ids start at 1. */
  struct {
    uint64_t next_parallel_id;
    uint64_t next_task_id;      /* by blocks of TASK_ID_BLOCK per thread (callbacks.c) */
    uint64_t next_device_op_id; /* target and host-op ids (device.c) */
    uint64_t task_frame_agreed; /* the runtime's answers that agreed with the task frame layout (wall.c) */
  } __attribute__((aligned(64))) ids;
};

extern struct agent ompprof_g;

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

#endif
