/* The sampling signal handler: installing it, quiescing it, giving up the signal, the task levels it records. */
#ifndef OMPPROF_HANDLER_H
#define OMPPROF_HANDLER_H

#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "thread_state.h"

uint32_t handler_fill_levels(const struct priv *p, struct ompprof_sample *s, uint8_t *out); /* signal-safe */
int handler_install(void);
void handler_quiesce(void);

/* The program takes the signal (signal_guard.c): every thread's sampling stops, and no signal of the agent's is on its
 * way once this returns. Returns whether the agent held the signal until now (else nothing to do). */
int handler_surrender(void);
/* Whether the agent's handler is the signal's. */
int handler_holds_signal(void);
/* What the signal's disposition was before the agent's handler. */
const struct sigaction *handler_program_action(void);

#endif
