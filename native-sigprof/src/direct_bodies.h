/*
 * The exit frames of bodies the program's own code calls: an undeferred task's
 * (a task whose if clause is false) and a serialized parallel region's (a
 * parallel construct whose if clause is false). libomp reports them from
 * frames that do not hold them; the agent puts right what it can.
 */
#ifndef OMPPROF_DIRECT_BODIES_H
#define OMPPROF_DIRECT_BODIES_H

#include <omp-tools.h>
#include <stdint.h>

#include "thread_state.h"

/* From the task_create callback of an undeferred task, in which libomp has already made the new task current:
 * `sp` is the callback's own stack pointer, `parent` the creating task's frame as the callback got it. */
void direct_bodies_undeferred(struct priv *p, uint64_t sp, const ompt_frame_t *parent, const ompt_data_t *task,
                              uint64_t codeptr);

/* From parallel_begin: a region the program runs the body of itself (libomp's invoker "program", one thread) has its
 * implicit task's exit frame worked out, from the encountering task's enter frame, which libomp sets to the same
 * frame. */
void direct_bodies_region_begin(struct priv *p, uint64_t region, const ompt_frame_t *encountering, unsigned requested,
                                int flags, uint64_t codeptr);

/* From the implicit_task callback that begins `region`: its frame is kept, should its exit frame need putting right. */
void direct_bodies_implicit_begin(struct priv *p, uint64_t region, const ompt_data_t *task);

/* From parallel_end. */
void direct_bodies_region_end(struct priv *p, uint64_t region);

/* The exit frame to take for the task whose frame is `frame` and reports `reported`: the one its serialized region's
 * body has, where libomp reported its own returned frame for it. */
static inline uint64_t direct_bodies_exit(const struct priv *p, const void *frame, uint64_t reported) /* signal-safe */
{
  const struct serialized_exits *s = &p->sig.serialized;
  uint32_t n = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n && i < SERIALIZED_OPEN; i++)
    if (s->frame[i] == (uint64_t)(uintptr_t)frame && s->reported[i] == reported)
      return s->meant[i];
  return reported;
}

#endif
