/* Wall mode: threads sampled by their cpu-clock events while they run, by the sampler thread while they block. */
#ifndef OMPPROF_WALL_H
#define OMPPROF_WALL_H

#include <omp-tools.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "thread_state.h"

int wall_start(void);
void wall_stop(void);
int wall_register(struct priv *p);
void wall_unregister(struct priv *p);
int wall_is_signal(const siginfo_t *si);                                                     /* signal-safe */
int wall_is_cpu_signal(const struct priv *p, const siginfo_t *si);                           /* signal-safe */
uint64_t wall_sample_weight(struct priv *p, uint64_t t);                                     /* signal-safe */
void wall_signal_done(struct priv *p);                                                       /* signal-safe */
void wall_undo_interrupt(ucontext_t *uc, int running);                                       /* signal-safe */
void wall_view_store(struct priv *p, const struct ompprof_sample *s, const uint8_t *levels); /* signal-safe */
void wall_view_resumed(struct priv *p);
void wall_view_switch(struct priv *p, const ompt_data_t *next, uint32_t task_flags, struct wall_team *team);
void wall_task_switch(struct priv *p, const ompt_data_t *prior, const ompt_data_t *next);
void wall_task_end(struct priv *p, const ompt_data_t *next);

/* The writer's side of the view's sequence lock, on the thread (a callback or its handler): 0 when
 * a write is under way already (a handler that interrupted a callback's write leaves the view to it). */
static inline int wall_view_open(struct wall_view *v, uint32_t *seq) /* signal-safe */
{
  *seq = __atomic_load_n(&v->seq, __ATOMIC_RELAXED);
  if (*seq & 1u)
    return 0;
  __atomic_store_n(&v->seq, *seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  return 1;
}

static inline void wall_view_close(struct wall_view *v, uint32_t seq) /* signal-safe */
{
  __atomic_store_n(&v->seq, seq + 2, __ATOMIC_RELEASE);
}

/* wall_view_switch to no task (one that completed), inline: half of a task program's switches */
static inline void wall_view_drop(struct priv *p)
{
  struct wall_view *v = &p->wall.view;
  uint32_t seq;
  if (p->sig.has_timer != TIMER_WALL || !wall_view_open(v, &seq))
    return;
  v->task_levels = 0; /* view_copy fails: no view */
  wall_view_close(v, seq);
}

#endif
