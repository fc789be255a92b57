/*
 * Which mutexes someone waited for, and when. A fixed-size, lock-free,
 * open-addressing table from wait id to the generation at which a waiter was
 * last sampled waiting for it. Generations come from one global counter that
 * every mark advances, so a holder that reads the counter when it acquires a
 * mutex knows at release, with one load, whether anything was marked during
 * its hold, and with one look-up whether its own mutex was.
 *
 * Marks are made by the SIGPROF handler (a waiter sampled between its
 * mutex_acquire and mutex_acquired callbacks) and, in wall mode, by the
 * sampler thread at each tick for every thread between those callbacks
 * (a waiter that other processes keep off the cores is not sampled by its
 * cpu-clock event for milliseconds, and the holds that made it wait would go
 * unwritten); holders look up at release.
 * Everything here is async-signal-safe: no allocation, no locks, only
 * __atomic operations on static memory.
 */
#ifndef OMPPROF_MUTEX_TABLE_H
#define OMPPROF_MUTEX_TABLE_H

#include <stdint.h>

#define MUTEX_TABLE_SLOTS  4096u /* power of two; 64 KiB */
#define MUTEX_TABLE_PROBES 64u   /* a key not found within this many slots is not there */
#define MUTEX_GEN_TIMES    256u  /* power of two: the times of the most recent marks */

/* The current generation (0 before any mark). */
static inline uint64_t mutex_gen(void) /* signal-safe */
{
  extern uint64_t mutex_table_gen;
  return __atomic_load_n(&mutex_table_gen, __ATOMIC_ACQUIRE);
}

/* Marks `wait_id` (non-zero) as waited for now; returns the new generation,
 * or 0 when the table is full and the id could not be entered (then every
 * look-up reports the newest generation: holds are over-recorded, never
 * lost). */
uint64_t mutex_mark(uint64_t wait_id); /* signal-safe */

/* Marks `wait_id` as waited for, then reads the clock and notes the mark's
 * time: returns that time in *ns, and the generation (0: table full). The
 * clock is read after the mark, so that every hold covering that time sees
 * the mark when it is released. */
uint64_t mutex_mark_now(uint64_t wait_id, uint64_t *ns); /* signal-safe */

/* The generation at which `wait_id` was last marked; 0 if never. */
uint64_t mutex_marked_gen(uint64_t wait_id); /* signal-safe */

/* Notes that mark `gen` was made just before time `ns` (a sample's time). */
void mutex_gen_time(uint64_t gen, uint64_t ns); /* signal-safe */

/* The time noted for generation `gen`; 0 if it is no longer (or not yet) kept. */
uint64_t mutex_gen_time_of(uint64_t gen); /* signal-safe */

/* Forgets every mark (tests; a fresh process starts empty). */
void mutex_table_reset(void);

#endif
