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

/* Appends one creation. Returns 0, leaving the batch as it was, when the
 * entry belongs in the next batch: this one is full, or the task id does not
 * follow the last one by 1 to 2^61-1. An empty batch takes any entry. */
int task_pack_add(struct task_pack *b, uint64_t task_id, uint64_t parent_task_id, uint64_t shape);

/* The same, followed by a time (a region's end); a batch holds timed entries
 * only or untimed ones only. */
int task_pack_add_timed(struct task_pack *b, uint64_t id, uint64_t parent_id, uint64_t shape, uint64_t time_ns);

#endif
