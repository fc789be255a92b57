/* Per-thread sampling timers: arming, disarming, telling their signals apart. */
#ifndef OMPPROF_TIMERS_H
#define OMPPROF_TIMERS_H

#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "thread_state.h"

void timer_arm(struct priv *p);
void timer_disarm(struct priv *p);
void timers_stop_all(void); /* every thread's, once no handler samples (handler_surrender) */
void timer_forget_in_child(void);
int timer_perf_open(struct priv *p);
int timer_is_perf_signal(const struct priv *p, const siginfo_t *si);    /* signal-safe */
uint64_t timer_perf_elapsed(struct priv *p);                            /* signal-safe */
int timer_is_retired_signal(const struct priv *p, const siginfo_t *si); /* signal-safe */
void timer_watch_switches(struct priv *p, uint64_t cpu_ns);             /* signal-safe */

/* Around the program's exec calls (exec_guard.c): the thread's sampling stops and a signal on
 * its way is taken back (returns whether it was sampled); if exec failed, it is sampled again. */
int ompprof_exec_begin(void);
void ompprof_exec_failed(int stopped);

#endif
