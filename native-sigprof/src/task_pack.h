/* Task creations packed for an OMPPROF_REC_TASK_BATCH_PACKED record, and
 * ended regions for an OMPPROF_REC_REGION_BATCH_PACKED one (the encodings
 * are described with those records in ompprof_wire.h). */
#ifndef OMPPROF_TASK_PACK_H
#define OMPPROF_TASK_PACK_H
#include <stdint.h>

#include "ompprof_wire.h"

struct task_pack {
  uint64_t base_task_id;
  uint64_t prev_task, prev_parent;
  uint64_t base_time, prev_time;          /* timed entries (regions) only */
  uint64_t shapes[OMPPROF_PACKED_SHAPES]; /* the most recent first */
  uint32_t count;                         /* entries */
  uint32_t len;                           /* bytes used */
  uint8_t bytes[OMPPROF_MAX_TASK_BATCH * OMPPROF_MAX_PACKED_REGION_ENTRY];
};

/* Starts an empty batch. */
void task_pack_reset(struct task_pack *b); /* signal-safe */

/* task_pack_add for any entry. */
int task_pack_add_any(struct task_pack *b, uint64_t task_id, uint64_t parent_task_id, uint64_t shape);

static inline uint64_t task_pack_zigzag(uint64_t d)
{
  return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

/* Appends one creation. Returns 0, leaving the batch as it was, when the
 * entry belongs in the next batch: this one is full, or the task id does not
 * follow the last one by 1 to 2^61-1. An empty batch takes any entry.
 * Inline for the entry a task program writes by the million, two or three
 * bytes: an id a little after the last, a sibling's parent or a near one, one
 * of the four latest shapes (a recursion's sites take turns, each under the
 * task bodies that reach it). */
static inline int task_pack_add(struct task_pack *b, uint64_t task_id, uint64_t parent_task_id, uint64_t shape)
{
  uint64_t step = task_id - b->prev_task, parent = task_pack_zigzag(parent_task_id - b->prev_parent);
  uint32_t code = 0;
  while (code < 4u && b->shapes[code] != shape)
    code++;
  if (b->count - 1u >= OMPPROF_MAX_TASK_BATCH - 1u || step - 1u >= 15u || parent >= 0x4000u || code == 4u)
    return task_pack_add_any(b, task_id, parent_task_id, shape);
  /* carried word by word, unrolled: a shifting loop compiles to a memmove call */
  uint64_t s0 = b->shapes[0], s1 = b->shapes[1], s2 = b->shapes[2];
  b->shapes[0] = shape;
  if (code >= 1u)
    b->shapes[1] = s0;
  if (code >= 2u)
    b->shapes[2] = s1;
  if (code == 3u)
    b->shapes[3] = s2;
  uint8_t *out = b->bytes + b->len;
  out[0] = (uint8_t)(step << 3 | code);
  if (parent < 0x80u) {
    out[1] = (uint8_t)parent;
    b->len += 2;
  } else {
    out[1] = (uint8_t)(parent | 0x80u);
    out[2] = (uint8_t)(parent >> 7);
    b->len += 3;
  }
  b->count++;
  b->prev_task = task_id;
  b->prev_parent = parent_task_id;
  return 1;
}

/* The same, followed by a time (a region's end); a batch holds timed entries
 * only or untimed ones only. */
int task_pack_add_timed(struct task_pack *b, uint64_t id, uint64_t parent_id, uint64_t shape, uint64_t time_ns);

#endif
