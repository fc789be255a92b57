/*
 * Packs a thread's task creations: consecutive ids on one thread differ by a
 * little (one counter shared by all threads), siblings share their parent,
 * and a recursion cycles through a few creation shapes, so most entries take
 * 2 or 3 bytes. A thread's ended regions pack the same way, with their ends'
 * steps added. Plain code on the callback path: no allocation, no calls.
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

/* The shape's place among the recent ones (OMPPROF_PACKED_SHAPES if new);
 * either way it moves to the front. */
static uint32_t shape_code(struct task_pack *b, uint64_t shape)
{
  uint32_t i = 0;
  while (i < OMPPROF_PACKED_SHAPES && b->shapes[i] != shape)
    i++;
  uint32_t code = i;
  if (i == OMPPROF_PACKED_SHAPES)
    i--; /* a new one: the oldest goes */
  /* carried word by word: the few words a recursion's shapes move (fib's two take turns) cost less than the memmove
   * call a shifting loop compiles to */
  uint64_t carry = shape;
  for (uint32_t j = 0; j <= i; j++) {
    uint64_t was = b->shapes[j];
    b->shapes[j] = carry;
    carry = was;
  }
  return code;
}

int task_pack_add_any(struct task_pack *b, uint64_t task_id, uint64_t parent_task_id, uint64_t shape)
{
  if (b->count == 0) {
    b->base_task_id = task_id - 1;
    b->prev_task = task_id - 1;
    b->prev_parent = 0;
    for (uint32_t i = 0; i < OMPPROF_PACKED_SHAPES; i++)
      b->shapes[i] = 0;
  } else if (b->count == OMPPROF_MAX_TASK_BATCH) {
    return 0;
  }
  uint64_t step = task_id - b->prev_task;
  if (step == 0 || step >= (1ull << 61))
    return 0;
  uint32_t code = shape_code(b, shape);
  uint8_t *out = b->bytes + b->len;
  uint32_t n = put_varint(out, (step << 3) | code);
  n += put_varint(out + n, task_pack_zigzag(parent_task_id - b->prev_parent));
  if (code == OMPPROF_PACKED_SHAPES)
    for (int i = 0; i < 8; i++)
      out[n++] = (uint8_t)(shape >> (8 * i));
  b->len += n;
  b->count++;
  b->prev_task = task_id;
  b->prev_parent = parent_task_id;
  return 1;
}

int task_pack_add_timed(struct task_pack *b, uint64_t id, uint64_t parent_id, uint64_t shape, uint64_t time_ns)
{
  uint32_t first = b->count == 0;
  if (!task_pack_add(b, id, parent_id, shape))
    return 0;
  if (first)
    b->base_time = b->prev_time = time_ns;
  b->len += put_varint(b->bytes + b->len, task_pack_zigzag(time_ns - b->prev_time));
  b->prev_time = time_ns;
  return 1;
}
