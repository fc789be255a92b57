/*
 * The one way the agent writes a record into a ring: reserve room for it, its
 * header filled in, write the body, commit (or write a record built on the
 * stack in one call). A full ring drops the record and counts the drop.
 */
#ifndef OMPPROF_RECORD_H
#define OMPPROF_RECORD_H

#include <stdint.h>

#include "ompprof_wire.h"
#include "ring.h"

static inline void record_fill_header(struct ompprof_record_header *h, uint16_t type, uint32_t size,
                                      uint32_t thread_seq) /* signal-safe */
{
  h->size = size;
  h->type = type;
  h->version = OMPPROF_REC_VERSION;
  h->thread_seq = thread_seq;
  h->reserved = 0;
}

/* Room for a record of `size` bytes (header included, a multiple of 8) with its header
 * filled in; NULL when the ring is full (the drop is counted). Commit with record_commit. */
static inline void *record_reserve(const struct ring *r, uint16_t type, uint32_t size, uint32_t thread_seq,
                                   struct ring_res *res) /* signal-safe */
{
  if (!ring_reserve(r, size, res))
    return 0;
  record_fill_header((struct ompprof_record_header *)(void *)res->rec, type, 0, thread_seq);
  return res->rec;
}

/* Publishes a reserved record, `size` bytes long (at most what was reserved). */
static inline void record_commit(const struct ring *r, const struct ring_res *res, uint32_t size) /* signal-safe */
{
  ring_commit(r, res, size);
}

/* Records committed to the ring so far: a writer whose count has not moved since its own last record knows that
 * record is still the ring's last. */
static inline uint64_t record_count(const struct ring *r) /* signal-safe */
{
  return __atomic_load_n(&r->prod->records, __ATOMIC_RELAXED);
}

/* Makes `s` a repeat of the sample before it in its ring (OMPPROF_SAMPLE_REPEAT): its time and weight are its own,
 * the rest the reader takes from that one; it is committed as the sample struct alone. */
static inline void record_sample_as_repeat(struct ompprof_sample *s) /* signal-safe */
{
  s->flags |= OMPPROF_SAMPLE_REPEAT;
  s->task_levels = s->parallel_levels = 0;
  s->ctx.frame_count = s->ctx.stack_len = 0;
}

/* Writes a whole record built elsewhere (it starts with its header); 0 when the ring is full. */
static inline int record_write(const struct ring *r, uint16_t type, void *rec, uint32_t size,
                               uint32_t thread_seq) /* signal-safe */
{
  record_fill_header((struct ompprof_record_header *)rec, type, size, thread_seq);
  return ring_write(r, rec, size);
}

#endif
