/* The OMPT callbacks: registering them, flushing a thread's batched task creations and regions. */
#ifndef OMPPROF_CALLBACKS_H
#define OMPPROF_CALLBACKS_H

#include "thread_state.h"
#include <stdint.h>

void callbacks_register(void);
/* thread_ends: the thread's open regions are written too (their ends will not come) */
void callbacks_flush_batches(struct priv *p, int thread_ends);
/* The current task's id and frames, for callbacks that pass neither (mutex,
 * target): their records are stitched under the task's own context like a
 * creation. All 0 where the runtime answers nothing. */
void callbacks_current_task(uint64_t *task_id, uint64_t *exit_frame, uint64_t *enter_frame);
/* Writes the implicit task record on_implicit_task left pending. */
void callbacks_implicit_write(struct priv *p);
/* Before a record that names task_id as its creator or holder: the JVM finds
 * the region of an implicit task through that task's own record, which
 * on_implicit_task left pending. Inline: the callbacks that come by the
 * million mostly find nothing pending. */
static inline void callbacks_task_referenced(struct priv *p, uint64_t task_id)
{
  if (p->cb.implicit_pending && p->cb.implicit.task_id == task_id)
    callbacks_implicit_write(p);
}

#endif
