/*
 * Packs a thread's task creations: consecutive ids on one thread differ by a
 * little (one counter shared by all threads), siblings share their parent,
 * and a recursion alternates between its creation sites, so most entries take
 * 2 or 3 bytes. Plain code on the callback path: no allocation, no calls.
 */
#include "task_pack.h"

void task_pack_reset(struct task_pack *b) /* signal-safe: a slot claim in the handler resets it */
{
  b->count = 0;
  b->len = 0;
}

static uint32_t put_varint(uint8_t *out, uint64_t v)
{
  uint32_t n = 0;
  while (v >= 0x80) {
    out[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  out[n++] = (uint8_t)v;
  return n;
}

static uint64_t zigzag(uint64_t d)
{
  return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

static uint32_t shape_code(struct task_pack *b, uint64_t shape)
{
  if (shape == b->shape_last)
    return 0;
  uint32_t code = shape == b->shape_before ? 1 : 2; /* 1: the two swap */
  b->shape_before = b->shape_last;
  b->shape_last = shape;
  return code;
}

int task_pack_add(struct task_pack *b, uint64_t task_id, uint64_t parent_task_id, uint64_t shape)
{
  if (b->count == 0) {
    b->base_task_id = task_id - 1;
    b->prev_task = task_id - 1;
    b->prev_parent = 0;
    b->shape_last = b->shape_before = 0;
  } else if (b->count == OMPPROF_MAX_TASK_BATCH) {
    return 0;
  }
  uint64_t step = task_id - b->prev_task;
  if (step == 0 || step >= (1ull << 62))
    return 0;
  uint32_t code = shape_code(b, shape);
  uint8_t *out = b->bytes + b->len;
  uint32_t n = put_varint(out, (step << 2) | code);
  n += put_varint(out + n, zigzag(parent_task_id - b->prev_parent));
  if (code == 2)
    for (int i = 0; i < 8; i++)
      out[n++] = (uint8_t)(shape >> (8 * i));
  b->len += n;
  b->count++;
  b->prev_task = task_id;
  b->prev_parent = parent_task_id;
  return 1;
}
