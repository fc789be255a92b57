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
void wall_view_switch(struct priv *p, const ompt_data_t *next);

#endif
