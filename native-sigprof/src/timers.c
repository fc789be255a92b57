/*
 * Per-thread sampling timers. Each thread owns a timer that signals that
 * thread only, so samples are spread over threads by their own clock instead
 * of whichever thread the kernel picks for a process-directed signal.
 *
 * Wall mode: the wall sampler thread (wall.c) with, where the kernel allows
 * it, the thread's perf cpu-clock event for the time it runs; a POSIX timer on
 * CLOCK_MONOTONIC (SIGEV_THREAD_ID) where the sampler could not be started.
 * CPU mode: a perf software cpu-clock event of the thread (hrtimer based, so
 * it keeps the asked rate; POSIX CPU-clock timers only fire at the kernel's
 * tick, 250 Hz on common kernels), delivering the sampling signal to the
 * thread (F_SETOWN_EX/F_OWNER_TID, F_SETSIG, O_ASYNC) on every overflow.
 * Where the kernel refuses perf events (perf_event_paranoid, seccomp) the
 * thread's CPU-clock POSIX timer stands in. A thread that switches too often
 * for its perf event (switch_watch.h) moves to such a timer in its handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent_state.h"
#include "clock.h"
#include "switch_watch.h"
#include "thread_state.h"
#include "timers.h"
#include "wall.h"

/* Up to four arguments, no errno, no libc: what the handler's move needs. */
static long raw_syscall(long nr, long a, long b, long c, long d) /* signal-safe */
{
  long r;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
  return r;
}

/* The calling thread's context switches, voluntary and involuntary. */
static uint64_t thread_switches(void) /* signal-safe */
{
  struct rusage ru;
  if (raw_syscall(SYS_getrusage, RUSAGE_THREAD, (long)&ru, 0, 0) != 0)
    return 0;
  return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

/* splitmix64: a cheap per-thread seed is enough to de-phase timers. */
static uint64_t mix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static int perf_open(struct perf_event_attr *a, uint32_t tid)
{
  return (int)syscall(SYS_perf_event_open, a, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The thread's perf cpu-clock event at the sampling period, its overflow
 * signal routed to the thread, not yet enabled; -1 where the kernel refuses. */
int timer_perf_open(struct priv *p)
{
  struct agent *g = &ompprof_g;
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_SOFTWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_SW_CPU_CLOCK;
  a.sample_period = g->period_ns;
  a.wakeup_events = 1;
  a.disabled = 1; /* enabled once the signal is routed: SIGIO's default would end the program */
  int fd = perf_open(&a, p->os_tid);
  if (fd < 0 && (errno == EACCES || errno == EPERM)) {
    /* perf_event_paranoid 2: user time only (time in the kernel is then not sampled) */
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = perf_open(&a, p->os_tid);
  }
  if (fd < 0)
    return -1;
  struct f_owner_ex owner = {F_OWNER_TID, (pid_t)p->os_tid};
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, g->signo) != 0 ||
      fcntl(fd, F_SETFL, fl | O_ASYNC) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* 1 armed; 0 not allowed here (the caller falls back to a POSIX timer). */
static int perf_arm(struct priv *p)
{
  int fd = timer_perf_open(p);
  if (fd < 0)
    return 0;
  p->sig.perf_fd = fd;
  p->sig.perf_count = 0;
  switch_watch_begin(&p->sig.watch, thread_switches()); /* on the thread: timer_arm's callers run there */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);              /* the handler sees the fd before the first signal */
  p->sig.has_timer = TIMER_PERF;
  if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    p->sig.has_timer = TIMER_NONE;
    close(fd);
    return 0;
  }
  return 1;
}

/* The other half of handler_surrender's pairing: either it finds this thread's timer, armed before it stopped the
 * sampling, or the thread finds the sampling stopped once its timer is armed. */
static void stop_if_surrendered(struct priv *p)
{
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (__atomic_load_n(&ompprof_g.sampling_off, __ATOMIC_SEQ_CST))
    timer_disarm(p);
}

void timer_arm(struct priv *p)
{
  struct agent *g = &ompprof_g;
  if (p->sig.has_timer || __atomic_load_n(&g->sampling_off, __ATOMIC_ACQUIRE))
    return;
  if ((g->mode == OMPPROF_MODE_CPU && !g->cpu_timers_only && !p->sig.watch.moved && perf_arm(p)) ||
      (g->mode == OMPPROF_MODE_WALL && g->wall_sampler && wall_register(p))) {
    stop_if_surrendered(p);
    return;
  }
  struct sigevent sev = {0};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = g->signo;
  sev._sigev_un._tid = (int)p->os_tid;
  clockid_t clock = g->mode == OMPPROF_MODE_CPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
  timer_t t;
  if (timer_create(clock, &sev, &t) != 0) {
    __atomic_add_fetch(&g->timers_failed, 1, __ATOMIC_RELAXED);
    return;
  }
  /* Threads started together would otherwise fire in lockstep and all pay
   * the handler cost at the same instant. */
  uint64_t first = 1 + mix64(now_ns() ^ ((uint64_t)p->os_tid << 32)) % g->period_ns;
  struct itimerspec its;
  its.it_interval.tv_sec = (time_t)(g->period_ns / 1000000000u);
  its.it_interval.tv_nsec = (long)(g->period_ns % 1000000000u);
  its.it_value.tv_sec = (time_t)(first / 1000000000u);
  its.it_value.tv_nsec = (long)(first % 1000000000u);
  if (timer_settime(t, 0, &its, NULL) != 0) {
    __atomic_add_fetch(&g->timers_failed, 1, __ATOMIC_RELAXED);
    timer_delete(t);
    return;
  }
  p->sig.timer = t;
  p->sig.has_timer = TIMER_POSIX;
  stop_if_surrendered(p);
}

/* The timer of the kind the caller took out of has_timer (exchanged for TIMER_NONE: it alone deletes it). */
static void delete_timer(struct priv *p, uint8_t kind)
{
  if (kind == TIMER_PERF) {
    ioctl(p->sig.perf_fd, PERF_EVENT_IOC_DISABLE, 0);
    close(p->sig.perf_fd);
  } else if (kind == TIMER_MOVED) {
    raw_syscall(SYS_timer_delete, p->sig.moved_timer, 0, 0, 0);
  } else if (kind == TIMER_POSIX) {
    timer_delete(p->sig.timer);
  }
}

void timer_disarm(struct priv *p)
{
  if (p->sig.has_timer == TIMER_WALL) {
    wall_unregister(p);
    return;
  }
  /* One instruction: the handler (which may move a perf event to a timer)
   * runs either wholly before it, and this finds TIMER_MOVED, or after it and
   * finds TIMER_NONE. */
  uint8_t kind = __atomic_exchange_n(&p->sig.has_timer, TIMER_NONE, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  delete_timer(p, kind);
}

/* Every thread's timer, from the thread that surrenders the signal, once no handler runs and none will sample
 * (handler_surrender): the exchange leaves a timer to whichever of this and the thread's own timer_disarm gets it.
 * The wall sampler has stopped: a wall thread keeps its registration for its own timer_disarm, its cpu-clock event
 * is only disabled. */
void timers_stop_all(void)
{
  struct agent *g = &ompprof_g;
  for (uint32_t i = 0; g->privs && i < g->slot_count; i++) {
    struct priv *p = &g->privs[i];
    if (__atomic_load_n(&p->sig.has_timer, __ATOMIC_SEQ_CST) == TIMER_WALL) {
      if (p->wall.cpu_fd >= 0)
        ioctl(p->wall.cpu_fd, PERF_EVENT_IOC_DISABLE, 0);
      continue;
    }
    delete_timer(p, __atomic_exchange_n(&p->sig.has_timer, TIMER_NONE, __ATOMIC_SEQ_CST));
  }
}

/* A fork child inherits the perf events' descriptors (POSIX timers are not
 * inherited): they count and signal the parent's threads, so the child only
 * closes its copies, which leaves the parent's events alone. */
void timer_forget_in_child(void)
{
  struct agent *g = &ompprof_g;
  for (uint32_t i = 0; g->privs && i < g->slot_count; i++) {
    struct priv *p = &g->privs[i];
    if (p->sig.has_timer == TIMER_PERF)
      close(p->sig.perf_fd); /* (a moved thread's POSIX timer is not inherited) */
    else if (p->sig.has_timer == TIMER_WALL) {
      close(p->wall.fd);
      if (p->wall.cpu_fd >= 0)
        close(p->wall.cpu_fd);
    }
    p->sig.has_timer = TIMER_NONE;
  }
}

/* Whether this signal is the overflow of this thread's perf event (the
 * kernel sends it with si_code POLL_IN and the event's descriptor). */
int timer_is_perf_signal(const struct priv *p, const siginfo_t *si) /* signal-safe */
{
  return si && p && p->sig.has_timer == TIMER_PERF && si->si_code == POLL_IN && si->si_fd == p->sig.perf_fd;
}

/* The last signal of the perf event a thread moved away from: it overflowed
 * while the handler that moved it ran (SIGPROF does not queue: at most one). */
int timer_is_retired_signal(const struct priv *p, const siginfo_t *si) /* signal-safe */
{
  return si && p && p->sig.has_timer == TIMER_MOVED && si->si_code == POLL_IN && si->si_fd == p->sig.moved_fd;
}

/* CPU time counted since the previous sample; read(2) is async-signal-safe. */
uint64_t timer_perf_elapsed(struct priv *p) /* signal-safe */
{
  uint64_t count = 0;
  if (read(p->sig.perf_fd, &count, sizeof count) != (ssize_t)sizeof count || count < p->sig.perf_count)
    return 0;
  uint64_t d = count - p->sig.perf_count;
  p->sig.perf_count = count;
  return d;
}

/* Replaces the thread's perf event by a CPU-clock timer at the same period;
 * 0 where the kernel refused the timer (the perf event stays). Runs in the
 * handler, on the thread: nothing else of the thread's runs meanwhile, and
 * timer_disarm's exchange of has_timer is one instruction. The sample just
 * taken counted the CPU time up to now; the timer's samples count the rest,
 * by their period and overruns. */
static int move_to_cpu_timer(struct priv *p) /* signal-safe */
{
  struct agent *g = &ompprof_g;
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = g->signo;
  sev._sigev_un._tid = (int)p->os_tid;
  int id = -1;
  if (raw_syscall(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, (long)&sev, (long)&id, 0) != 0)
    return 0;
  struct itimerspec its;
  its.it_interval.tv_sec = its.it_value.tv_sec = (time_t)(g->period_ns / 1000000000u);
  its.it_interval.tv_nsec = its.it_value.tv_nsec = (long)(g->period_ns % 1000000000u);
  if (raw_syscall(SYS_timer_settime, id, 0, (long)&its, 0) != 0) {
    raw_syscall(SYS_timer_delete, id, 0, 0, 0);
    return 0;
  }
  int fd = p->sig.perf_fd;
  p->sig.moved_timer = id;
  p->sig.moved_fd = fd;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  p->sig.has_timer = TIMER_MOVED;
  raw_syscall(SYS_ioctl, fd, PERF_EVENT_IOC_DISABLE, 0, 0);
  raw_syscall(SYS_close, fd, 0, 0, 0);
  return 1;
}

/* After a perf sample that counted `cpu_ns`: at the end of a window, the
 * thread's switch rate decides whether it leaves its perf event. */
void timer_watch_switches(struct priv *p, uint64_t cpu_ns) /* signal-safe */
{
  struct agent *g = &ompprof_g;
  struct switch_watch *w = &p->sig.watch;
  if (g->cpu_switch_limit == 0 || !switch_watch_sample(w, cpu_ns))
    return;
  if (!switch_watch_read(w, thread_switches(), g->cpu_switch_limit) || !move_to_cpu_timer(p))
    return;
  switch_watch_moved(w);
  __atomic_add_fetch(&g->hdr->cpu_moved_threads, 1, __ATOMIC_RELAXED);
}

/*
 * exec replaces the program but keeps a thread's pending signals, and resets
 * the sampling signal's handler to its default action (terminate): a sample
 * signal sent while the thread was inside execve killed the new program. The
 * agent's stand-ins for the exec functions (exec_guard.c) call these around
 * the program's exec calls: the thread's sampling stops and a signal already
 * on its way is taken back; if exec fails, sampling resumes.
 */
int ompprof_exec_begin(void)
{
  struct agent *g = &ompprof_g;
  if (!agent_attached())
    return 0;
  int e = errno;
  sigset_t sig, old;
  sigemptyset(&sig);
  sigaddset(&sig, g->signo);
  pthread_sigmask(SIG_BLOCK, &sig, &old);
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  int stopped = PRIV_VALID(p) && p->sig.has_timer != TIMER_NONE;
  if (stopped)
    timer_disarm(p); /* the wall sampler is done with the thread when this returns */
  struct timespec none = {0, 0};
  while (sigtimedwait(&sig, NULL, &none) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = e;
  return stopped;
}

/* exec failed and the program goes on: the thread is sampled again. */
void ompprof_exec_failed(int stopped)
{
  int e = errno; /* what the program reads of the failed exec */
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (stopped && agent_attached() && PRIV_VALID(p))
    timer_arm(p);
  errno = e;
}
