/* The OMPT callbacks: registering them, flushing a thread's pending task creations. */
#ifndef OMPPROF_CALLBACKS_H
#define OMPPROF_CALLBACKS_H

#include "thread_state.h"
#include <stdint.h>

void callbacks_register(void);
void callbacks_flush_tasks(struct priv *p);
/* The current task's id and frames, for callbacks that pass neither (mutex,
 * target): their records are stitched under the task's own context like a
 * creation. All 0 where the runtime answers nothing. */
void callbacks_current_task(uint64_t *task_id, uint64_t *exit_frame, uint64_t *enter_frame);

#endif
