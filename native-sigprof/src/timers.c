/*
 * Per-thread sampling timers. Each thread owns a POSIX timer that delivers
 * SIGPROF to that thread only (SIGEV_THREAD_ID), so samples are spread over
 * threads by their own clock instead of whichever thread the kernel picks
 * for a process-directed signal.
 */
#include <signal.h>
#include <time.h>

#include "agent.h"

/* splitmix64: a cheap per-thread seed is enough to de-phase timers. */
static uint64_t mix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void timer_arm(struct priv *p)
{
  struct agent *g = &ompprof_g;
  if (p->has_timer || __atomic_load_n(&g->sampling_off, __ATOMIC_ACQUIRE))
    return;
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
  p->timer = t;
  p->has_timer = 1;
}

void timer_disarm(struct priv *p)
{
  if (!p->has_timer)
    return;
  p->has_timer = 0;
  timer_delete(p->timer);
}
