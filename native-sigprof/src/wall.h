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
uint64_t wall_signal_weight(struct priv *p);                                                 /* signal-safe */
void wall_signal_done(struct priv *p);                                                       /* signal-safe */
void wall_undo_interrupt(ucontext_t *uc, int running);                                       /* signal-safe */
void wall_view_store(struct priv *p, const struct ompprof_sample *s, const uint8_t *levels); /* signal-safe */
void wall_view_resumed(struct priv *p);
void wall_view_switch(struct priv *p, const ompt_data_t *next, uint32_t task_flags, struct wall_team *team);
int wall_task_resumed(struct priv *p, const ompt_data_t *task, uint32_t i);

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

/* The thread leaves `task` to run another one (a task scheduling point), or the implicit task of a region it opens
 * (`region`: its team is kept too): `task` is kept with its view's flags and frame for the completion or region end
 * that resumes it (thread_state.h, struct wall_suspended). Inline: twice a task in a task program. */
static inline void wall_task_suspend(struct priv *p, const ompt_data_t *task, int region)
{
  if (p->sig.has_timer != TIMER_WALL)
    return;
  struct wall_suspended *w = &p->cb.suspended;
  uint32_t d = w->depth++;
  if (d >= WALL_SUSPENDED)
    return;
  const struct wall_view *v = &p->wall.view;
  const struct ompprof_task_level *l = (const struct ompprof_task_level *)(const void *)v->levels;
  uint64_t id = task != NULL ? task->value : 0;
  w->task[d] = id;
  w->flags[d] = id != 0 && v->task_levels > 0 && v->frame0 >= 65536u && l->task_id == id ? l->task_flags : 0;
  w->frame[d] = v->frame0;
  if (region) {
    w->flags[d] |= WALL_SUSPENDED_REGION;
    w->parallel_id[d] = p->cb.team.parallel_id;
    w->thread_num[d] = p->cb.team.thread_num;
  }
}

/* `task` runs its code again on the thread (a completion resumed it, or the region it opened ended), and may block
 * there before a signal samples it: a sleep after a taskwait, an undeferred task or a region. It gets back the view
 * it had when it was suspended (its kind; its frame and id as they are now), and the thread its team. The innermost
 * entries are looked at: those above the task's were left unresumed (an untied task that moved on); a task not among
 * them leaves the stack as it was (a detached task fulfilled on another thread). 0 when no view was made: the
 * caller's to make. */
static inline int wall_task_resume(struct priv *p, const ompt_data_t *task)
{
  if (p->sig.has_timer != TIMER_WALL)
    return 1;
  struct wall_suspended *w = &p->cb.suspended;
  uint32_t d = w->depth;
  uint64_t id = task != NULL ? task->value : 0;
  if (id == 0 || d == 0)
    return 0;
  if (d > WALL_SUSPENDED) { /* suspended beyond what is kept */
    w->depth = d - 1;
    return 0;
  }
  uint32_t i = d;
  while (i > 0 && d - i < WALL_RESUME_LOOK && w->task[i - 1] != id)
    i--;
  if (i == 0 || w->task[i - 1] != id)
    return 0;
  w->depth = i - 1;
  return wall_task_resumed(p, task, i - 1);
}

#endif
