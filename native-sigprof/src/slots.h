/* The recorded threads' slots: claiming one, its bounds, ending it. */
#ifndef OMPPROF_SLOTS_H
#define OMPPROF_SLOTS_H

#include "thread_state.h"
#include <stdint.h>

struct priv *slot_claim(void);        /* signal-safe */
struct priv *priv_for_callback(void); /* claims lazily (and arms a timer); NULL when not profiling */
void signal_check(void);              /* notes a replaced handler or a blocked signal (not in a handler) */
struct priv *priv_for_agent(void);    /* claims without a timer, ignoring the gate (finalize) */
void priv_fetch_bounds(struct priv *p);
void slot_end(struct priv *p);
void slot_end_deferred(void);

#endif
