/* The table of waited-for mutexes (see mutex_table.h). */
#include "mutex_table.h"

#include "clock.h"

struct mt_slot {
  uint64_t id;  /* 0: empty; set once by CAS, never removed */
  uint64_t gen; /* raised by CAS, never lowered */
};

struct mt_time {
  uint64_t gen; /* 0 while being written */
  uint64_t ns;
};

uint64_t mutex_table_gen;
static struct mt_slot slots[MUTEX_TABLE_SLOTS];
static struct mt_time times[MUTEX_GEN_TIMES];
static int full; /* an id found no slot: every look-up answers the newest generation */

static inline uint32_t home(uint64_t id) /* signal-safe */
{
  /* wait ids are addresses: mix the bits above the alignment in */
  uint64_t h = id * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> 52) & (MUTEX_TABLE_SLOTS - 1u);
}

static struct mt_slot *find(uint64_t id, int insert) /* signal-safe */
{
  uint32_t i = home(id);
  for (uint32_t n = 0; n < MUTEX_TABLE_PROBES; n++, i = (i + 1u) & (MUTEX_TABLE_SLOTS - 1u)) {
    struct mt_slot *s = &slots[i];
    uint64_t k = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);
    if (k == id)
      return s;
    if (k == 0) {
      if (!insert)
        return 0;
      uint64_t expect = 0;
      if (__atomic_compare_exchange_n(&s->id, &expect, id, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) || expect == id)
        return s;
    }
  }
  return 0;
}

uint64_t mutex_mark(uint64_t wait_id) /* signal-safe */
{
  /* seq_cst: a full barrier, so the sample time taken after this call is
   * later than the mark in every thread's view */
  uint64_t g = __atomic_add_fetch(&mutex_table_gen, 1, __ATOMIC_SEQ_CST);
  struct mt_slot *s = find(wait_id, 1);
  if (!s) {
    __atomic_store_n(&full, 1, __ATOMIC_SEQ_CST);
    return 0;
  }
  uint64_t cur = __atomic_load_n(&s->gen, __ATOMIC_RELAXED);
  while (cur < g && !__atomic_compare_exchange_n(&s->gen, &cur, g, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return g;
}

uint64_t mutex_mark_now(uint64_t wait_id, uint64_t *ns) /* signal-safe */
{
  uint64_t g = mutex_mark(wait_id);
  *ns = now_ns();
  if (g)
    mutex_gen_time(g, *ns);
  return g;
}

uint64_t mutex_marked_gen(uint64_t wait_id) /* signal-safe */
{
  if (__atomic_load_n(&full, __ATOMIC_ACQUIRE))
    return mutex_gen();
  struct mt_slot *s = find(wait_id, 0);
  return s ? __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) : 0;
}

void mutex_gen_time(uint64_t gen, uint64_t ns) /* signal-safe */
{
  struct mt_time *t = &times[gen & (MUTEX_GEN_TIMES - 1u)];
  __atomic_store_n(&t->gen, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  __atomic_store_n(&t->ns, ns, __ATOMIC_RELAXED);
  __atomic_store_n(&t->gen, gen, __ATOMIC_RELEASE);
}

uint64_t mutex_gen_time_of(uint64_t gen) /* signal-safe */
{
  struct mt_time *t = &times[gen & (MUTEX_GEN_TIMES - 1u)];
  if (__atomic_load_n(&t->gen, __ATOMIC_ACQUIRE) != gen)
    return 0;
  uint64_t ns = __atomic_load_n(&t->ns, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&t->gen, __ATOMIC_RELAXED) == gen ? ns : 0;
}

void mutex_table_reset(void)
{
  for (uint32_t i = 0; i < MUTEX_TABLE_SLOTS; i++)
    slots[i] = (struct mt_slot){0, 0};
  for (uint32_t i = 0; i < MUTEX_GEN_TIMES; i++)
    times[i] = (struct mt_time){0, 0};
  mutex_table_gen = 0;
  full = 0;
}
