/* The OMPT callbacks: registering them, flushing a thread's pending task creations. */
#ifndef OMPPROF_CALLBACKS_H
#define OMPPROF_CALLBACKS_H

#include "thread_state.h"
#include <stdint.h>

void callbacks_register(void);
void callbacks_flush_tasks(struct priv *p);

#endif
