/*
 * Slot ownership. A slot is one thread's pair of rings; the JVM frees ended
 * slots after draining them, so claims race only against other threads (CAS)
 * and, on the same thread, against the SIGPROF handler (TLS sentinels).
 */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agent_state.h"
#include "slots.h"
#include "thread_state.h"
#include "timers.h"

_Thread_local struct priv *ompprof_tls __attribute__((tls_model("initial-exec")));

static inline struct ompprof_slot_header *slot_at(uint32_t i) /* signal-safe */
{
  return (struct ompprof_slot_header *)(void *)(ompprof_g.base + OMPPROF_REGION_HEADER_SIZE +
                                                (uint64_t)i * ompprof_g.slot_size);
}

struct priv *slot_claim(void) /* signal-safe */
{
  struct agent *g = &ompprof_g;
  for (uint32_t i = 0; i < g->slot_count; i++) {
    struct ompprof_slot_header *s = slot_at(i);
    uint32_t expect = OMPPROF_SLOT_FREE;
    if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) != OMPPROF_SLOT_FREE)
      continue;
    /* acquire: the JVM's drain of the previous owner happened before FREE */
    if (!__atomic_compare_exchange_n(&s->state, &expect, OMPPROF_SLOT_OWNED, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      continue;
    struct priv *p = &g->privs[i];
    uint8_t *rings = (uint8_t *)s + OMPPROF_SLOT_HEADER_SIZE;
    uint32_t seq = __atomic_add_fetch(&g->hdr->next_thread_seq, 1, __ATOMIC_RELAXED);
    /* raw syscall: the handler may claim a slot for a thread it has never
     * seen and must not depend on libc's wrappers being signal-safe */
    uint32_t tid = raw_syscall0(SYS_gettid);
    __atomic_add_fetch(&s->generation, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->thread_seq, seq, __ATOMIC_RELAXED);
    __atomic_store_n(&s->os_tid, tid, __ATOMIC_RELEASE);
    __atomic_add_fetch(&g->threads_seen, 1, __ATOMIC_RELAXED);

    p->slot = s;
    uint64_t file_off = (uint64_t)(rings - g->base);
    p->sig.sample = (struct ring){&s->sample_prod, &s->sample_cons, rings, g->sample_ring_size, g->shm_fd, file_off};
    p->cb.event = (struct ring){&s->event_prod,     &s->event_cons, rings + g->sample_ring_size,
                                g->event_ring_size, g->shm_fd,      file_off + g->sample_ring_size};
    p->sig.stack_lo = p->sig.stack_hi = 0;
    p->sig.has_timer = 0;
    p->sig.watch = (struct switch_watch){0};
    p->sig.unknown_thread = 0;
    p->sig.end_deferred = 0;
    p->sig.in_handler = 0;
    task_pack_reset(&p->cb.tasks);
    p->cb.suspended.depth = 0;
    task_pack_reset(&p->cb.regions);
    s->open_regions = 0;
    s->pending_count = 0;
    p->sig.acq_id = 0;
    p->sig.acq_first_ns = 0;
    p->sig.held_n = 0;
    p->index = i;
    p->thread_seq = seq;
    p->os_tid = tid;
    p->thread_type = 0;
    return p;
  }
  __atomic_add_fetch(&g->hdr->no_slot_drops, 1, __ATOMIC_RELAXED);
  return NULL;
}

void priv_fetch_bounds(struct priv *p)
{
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size) {
    p->sig.stack_lo = (uint64_t)(uintptr_t)addr;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    p->sig.stack_hi = (uint64_t)(uintptr_t)addr + size;
  }
  pthread_attr_destroy(&attr);
}

/* Maps the slot's header and the chunk each ring writes next, outside the
 * handler: a page this process has never touched costs a fault (several
 * microseconds in a VM) on its first write. */
static void slot_prefault(struct priv *p)
{
  madvise(p->slot, OMPPROF_SLOT_HEADER_SIZE, MADV_POPULATE_WRITE); /* the JVM wrote it: reserved */
  ring_prefault(&p->sig.sample);
  ring_prefault(&p->cb.event);
}

static struct priv *claim_for_callback(struct priv *cur, int arm)
{
  /* CAS rather than a store: a signal between our load and our store could
   * have claimed a slot for this thread, which we would otherwise leak. */
  if (!__atomic_compare_exchange_n(&ompprof_tls, &cur, PRIV_CLAIMING, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return PRIV_VALID(cur) ? cur : NULL;
  struct priv *p = slot_claim();
  if (p) {
    priv_fetch_bounds(p);
    slot_prefault(p);
  }
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&ompprof_tls, p ? p : cur, __ATOMIC_RELAXED);
  /* Callbacks only run on OpenMP threads; one that finds no slot yet may have
   * missed its thread_begin (every slot taken at the time), and without a
   * timer it would never be sampled. */
  if (p && arm && !(__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) & GATE_STOPPED))
    timer_arm(p);
  return p;
}

static struct priv *priv_get(int arm)
{
  if (!agent_attached())
    return NULL;
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (PRIV_VALID(p))
    return p;
  if (p == PRIV_CLAIMING)
    return NULL;
  return claim_for_callback(p, arm);
}

struct priv *priv_for_agent(void)
{
  return priv_get(0);
}

struct priv *priv_for_callback(void)
{
  if (__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) & GATE_DISABLED)
    return NULL;
  return priv_get(1);
}

void slot_end(struct priv *p)
{
  /* The sentinel goes in before the state flips: once the JVM sees ENDED it
   * may free and hand the slot to another thread, and a late SIGPROF of ours
   * (timer_delete does not flush pending signals) must find nothing to
   * write into and must not claim a new slot either. */
  if (__atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED) == p)
    __atomic_store_n(&ompprof_tls, PRIV_ENDED, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&p->slot->state, OMPPROF_SLOT_ENDED, __ATOMIC_RELEASE);
}

void slot_end_deferred(void)
{
  struct agent *g = &ompprof_g;
  for (uint32_t i = 0; i < g->slot_count; i++) {
    struct priv *p = &g->privs[i];
    if (__atomic_load_n(&p->sig.end_deferred, __ATOMIC_ACQUIRE) && p->slot &&
        __atomic_load_n(&p->slot->state, __ATOMIC_RELAXED) == OMPPROF_SLOT_OWNED)
      slot_end(p);
  }
}
