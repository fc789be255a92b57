/* The sampling signal handler: installing it, quiescing it, the task levels it records. */
#ifndef OMPPROF_HANDLER_H
#define OMPPROF_HANDLER_H

#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "thread_state.h"

uint32_t handler_fill_levels(const struct priv *p, struct ompprof_sample *s, uint8_t *out); /* signal-safe */
int handler_install(void);
void handler_quiesce(void);

#endif
