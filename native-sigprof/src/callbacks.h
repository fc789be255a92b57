/* The OMPT callbacks: registering them, flushing a thread's pending task creations. */
#ifndef OMPPROF_CALLBACKS_H
#define OMPPROF_CALLBACKS_H

#include "thread_state.h"
#include <stdint.h>

void callbacks_register(void);
void callbacks_flush_tasks(struct priv *p);
/* Writes the implicit task the thread began last if it is `task_id` and was
 * not written yet: before any record that names the current task (a
 * creation, a target, a release site). */
void callbacks_name_task(struct priv *p, uint64_t task_id);

#endif
