/*
 * OMPT event callbacks. Each writes one record into the event ring of the
 * calling thread's slot; the sample ring is the handler's, which keeps both
 * rings single-producer even when a SIGPROF interrupts a callback.
 *
 * Region and task ids are assigned here (ompt_data_t values) because the
 * samples read them back through ompt_get_task_info/ompt_get_parallel_info:
 * that is how a sample is tied to its parallel region and task.
 */
#include <stddef.h>
#include <stdio.h>

#include "agent_state.h"
#include "callbacks.h"
#include "capture.h"
#include "clock.h"
#include "code_ranges.h"
#include "device.h"
#include "direct_bodies.h"
#include "frame_walk.h"
#include "modules.h"
#include "mutex_table.h"
#include "record.h"
#include "slots.h"
#include "thread_state.h"
#include "timers.h"
#include "wall.h"

/* One fixed-size record: header + BODYTYPE initialized from the rest. */
#define EMIT(p, TYPE, BODYTYPE, ...)                                                                                   \
  do {                                                                                                                 \
    struct {                                                                                                           \
      struct ompprof_record_header h;                                                                                  \
      BODYTYPE b;                                                                                                      \
    } rec_;                                                                                                            \
    _Static_assert(sizeof(rec_) == 16 + sizeof(BODYTYPE) && sizeof(rec_) % 8 == 0, "record layout");                   \
    rec_.b = (BODYTYPE){__VA_ARGS__};                                                                                  \
    record_write(&(p)->cb.event, (TYPE), &rec_, sizeof(rec_), (p)->thread_seq);                                        \
  } while (0)

static inline uint64_t data_value(const ompt_data_t *d)
{
  return d ? d->value : 0;
}
static inline uint64_t ptr_value(const void *p)
{
  return (uint64_t)(uintptr_t)p;
}

static inline uint64_t frame_ptr(const ompt_frame_t *f, int enter)
{
  return f ? ptr_value(enter ? f->enter_frame.ptr : f->exit_frame.ptr) : 0;
}

/* A task's exit frame as the samples take it (direct_bodies.h). */
static inline uint64_t exit_ptr(const struct priv *p, const ompt_frame_t *f)
{
  return f ? direct_bodies_exit(p, f, ptr_value(f->exit_frame.ptr)) : 0;
}

/* The thread's state when it is at hand (claimed, the agent enabled and attached), else NULL: the fast path of
 * priv_for_callback, inlined for the callbacks that come by the million (tasks, regions, mutexes). */
static inline struct priv *priv_at_hand(void)
{
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (__builtin_expect(PRIV_VALID(p) && !(__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) & GATE_DISABLED) &&
                           agent_attached(),
                       1))
    return p;
  return NULL;
}

static inline struct priv *priv_fast(void)
{
  struct priv *p = priv_at_hand();
  return p ? p : priv_for_callback();
}

/* priv_fast for a callback that does nothing at all while the agent is detached (*attached 0), not even take an id:
 * the check the fast path makes is not made twice. */
static inline struct priv *priv_fast_attached(int *attached)
{
  struct priv *p = priv_at_hand();
  if (__builtin_expect(p != NULL, 1)) {
    *attached = 1;
    return p;
  }
  *attached = agent_attached();
  return *attached ? priv_for_callback() : NULL;
}

static uint64_t new_parallel_id(void)
{
  return __atomic_add_fetch(&ompprof_g.ids.next_parallel_id, 1, __ATOMIC_RELAXED);
}

/* Task ids a thread takes from the shared count at a time: threads creating
 * tasks by the million would otherwise pass its cache line back and forth at
 * every creation. A thread's ids still grow, as packed batches need. */
#define TASK_ID_BLOCK 1024u

/* A new task id; from the thread's block when it has a slot. */
static uint64_t new_task_id(struct priv *p)
{
  if (!p)
    return __atomic_add_fetch(&ompprof_g.ids.next_task_id, 1, __ATOMIC_RELAXED);
  if (p->cb.task_id_last == p->cb.task_id_end) {
    p->cb.task_id_end = __atomic_add_fetch(&ompprof_g.ids.next_task_id, TASK_ID_BLOCK, __ATOMIC_RELAXED);
    p->cb.task_id_last = p->cb.task_id_end - TASK_ID_BLOCK;
  }
  return ++p->cb.task_id_last;
}

/* Writes a record whose body ends with a struct ompprof_context (`ctx`
 * points into `body`), followed by the stack snapshot from ctx->rsp. The
 * snapshot is copied straight into the ring, never staged. It stops just
 * past `exit_frame` when that is set: frames outward of it belong to the
 * task's own creation context, which is recorded once elsewhere, and a
 * task-heavy program would otherwise overflow the event ring with copies. */
/* Bytes of the creating context's stack worth sending: up to the encountering
 * task's exit frame (plus the runtime frame's saved registers). */
static uint32_t context_len(struct priv *p, struct ompprof_context *ctx, uint64_t exit_frame)
{
  uint32_t n = snapshot_len(ctx, p->sig.stack_lo, p->sig.stack_hi, ompprof_g.stack_bytes);
  if (exit_frame > ctx->rsp && exit_frame - ctx->rsp + EXIT_FRAME_MARGIN < n)
    n = (uint32_t)(exit_frame - ctx->rsp + EXIT_FRAME_MARGIN);
  return n;
}

/* Frames a creating context's walk writes at most; a deeper one goes on as a snapshot. */
#define CONTEXT_WALK_FRAMES 128u

/* Walks the creating context's frames with the unwind rows (frame_walk.h) up to
 * the encountering task's exit frame; ctx becomes the frame where the walk
 * stopped. Returns the snapshot bytes still worth sending from there: none
 * when the walk reached the exit frame or the outermost frame. */
static uint32_t context_walk(struct priv *p, struct ompprof_context *ctx, uint64_t exit_frame,
                             struct ompprof_frame *out, struct walk_log *log)
{
  uint32_t nf = 0, stop = OMPPROF_WALK_CONTINUE;
  if (ompprof_g.walk == WALK_ON && p->sig.stack_hi && ctx->rsp >= p->sig.stack_lo && ctx->rsp < p->sig.stack_hi) {
    struct walk_regs at = {ctx->rip, ctx->rsp, ctx->rbp, 0, 0}; /* no resolver frame lies under a callback */
    struct walk_bounds b = {ctx->rsp, p->sig.stack_hi, exit_frame > ctx->rsp ? exit_frame + EXIT_FRAME_CFA : UINT64_MAX,
                            CONTEXT_WALK_FRAMES};
    nf = frame_walk(cfi_tables_current(), &p->cb.memo, &at, &b, out, &stop, log);
    if (stop & WALK_STOPPED_AT_RULE) {
      nf = 0; /* the snapshot from the captured registers (frame_walk.h) */
      stop = OMPPROF_WALK_CONTINUE;
    } else {
      ctx->rip = at.pc;
      ctx->rsp = at.sp;
      ctx->rbp = at.bp;
    }
  }
  ctx->frame_count = nf;
  ctx->walk_stop = stop;
  return stop == OMPPROF_WALK_CONTINUE ? context_len(p, ctx, exit_frame) : 0;
}

/* Where the walk stops for the task's exit, from sp; 0: nowhere (the initial
 * task has no exit frame: its creations walk to the thread's first frame). */
static uint64_t exit_offset(uint64_t exit_frame, uint64_t sp)
{
  return exit_frame > sp ? exit_frame - sp : 0;
}

/* The index of the first of reads [i, end) whose word at its offset from sp, less `less`, is not its value; end if
 * none. */
static inline uint32_t creation_mismatch(const struct creation_walk *w, uint32_t i, uint32_t end, uint64_t sp,
                                         uint64_t less)
{
  for (; i < end; i++) {
    uint64_t v;
    __builtin_memcpy(&v, (const void *)(uintptr_t)(sp + w->off[i]), sizeof v);
    if (v - less != w->val[i])
      break;
  }
  return i;
}

/* Whether a creation captured at `ctx` (before its walk) would walk as `w`
 * did: the same place, the same registers and exit frame relative to sp, and
 * the same words where the walk read (frame_walk.h's walk_log). Its shape is
 * then w's; a task-heavy program's creations mostly take this path. A way that
 * does not match mostly fails at the word it failed at last (fib's two task
 * bodies differ in one return address), so that one is looked at first. */
static inline __attribute__((always_inline)) int creation_replays(struct creation_walk *w, const void *tables,
                                                                  const struct priv *p,
                                                                  const struct ompprof_context *ctx, uint64_t codeptr,
                                                                  uint64_t exit_frame)
{
  uint64_t sp = ctx->rsp;
  if (w->tables != tables || w->rip != ctx->rip || w->codeptr != codeptr ||
      exit_offset(exit_frame, sp) != w->exit_off || (w->bp_matters && ctx->rbp - sp != w->bp_off) ||
      p->sig.stack_hi <= sp || p->sig.stack_hi - sp < w->max_off)
    return 0;
  uint32_t f = w->first;
  if (f < w->reads && creation_mismatch(w, f, f + 1, sp, f < w->abs ? 0 : sp) == f)
    return 0;
  uint32_t at = creation_mismatch(w, 0, w->abs, sp, 0);
  if (at == w->abs)
    at = creation_mismatch(w, w->abs, w->reads, sp, sp);
  if (at != w->reads) {
    w->first = at;
    return 0;
  }
  return 1;
}

/* The set of kept walks a call site's creations use. */
static uint32_t creation_set(uint64_t codeptr)
{
  return (uint32_t)((codeptr ^ codeptr >> 4 ^ codeptr >> 9 ^ codeptr >> 17) % CREATION_SETS);
}

/* A kept walk the creation at `ctx` replays, or NULL. The way that matched last is tried first: a site's creations
 * mostly repeat one context (a loop's), or alternate between a few (a recursion's). */
static inline __attribute__((always_inline)) const struct creation_walk *
creation_replayed(struct creation_walks *k, const struct priv *p, const struct ompprof_context *ctx, uint64_t codeptr,
                  uint64_t exit_frame)
{
  const void *tables = cfi_tables_current();
  if (!tables)
    return NULL;
  uint32_t set = creation_set(codeptr), last = k->last[set];
  struct creation_walk *ways = k->walk[set];
  if (creation_replays(&ways[last], tables, p, ctx, codeptr, exit_frame))
    return &ways[last];
  for (uint32_t i = 0; i < CREATION_WAYS; i++)
    if (i != last && creation_replays(&ways[i], tables, p, ctx, codeptr, exit_frame)) {
      k->last[set] = (uint8_t)i;
      return &ways[i];
    }
  return NULL;
}

/* Keeps a walk that reached the exit frame or the thread's first frame
 * (nothing sent from the stack but its frames) to replay; `at` is the context as captured, before the walk. */
static void creation_remember(struct creation_walks *k, const struct ompprof_context *at,
                              const struct ompprof_context *ctx, const struct walk_log *log, uint64_t codeptr,
                              uint64_t exit_frame, uint32_t n, uint64_t shape)
{
  int reached = ctx->walk_stop == OMPPROF_WALK_TASK_EXIT || ctx->walk_stop == OMPPROF_WALK_COMPLETE;
  if (n != 0 || !reached || log->n > WALK_LOG_READS)
    return;
  uint32_t set = creation_set(codeptr);
  uint32_t way = k->next[set]++ % CREATION_WAYS;
  struct creation_walk *w = &k->walk[set][way];
  k->last[set] = (uint8_t)way;
  /* absolute reads first, then the saved rbp values (relative to sp) */
  uint32_t r = 0;
  for (uint32_t rel = 0; rel < 2; rel++) {
    if (rel)
      w->abs = r;
    for (uint32_t i = 0; i < log->n; i++)
      if ((log->frame_ptrs >> i & 1u) == rel) {
        w->off[r] = (uint32_t)(log->addr[i] - at->rsp);
        w->val[r++] = log->val[i] - (rel ? at->rsp : 0);
      }
  }
  w->reads = r;
  w->first = 0;
  w->rip = at->rip;
  w->codeptr = codeptr;
  w->exit_off = exit_offset(exit_frame, at->rsp);
  w->bp_matters = log->entry_bp_used;
  w->bp_off = at->rbp - at->rsp;
  w->max_off = log->max_end > at->rsp ? log->max_end - at->rsp : 0;
  w->shape = shape;
  w->tables = cfi_tables_current();
}

/* Returns 0 if the ring was full and the record dropped. */
static int emit_with_context(struct priv *p, uint16_t type, void *body, uint32_t body_size, struct ompprof_context *ctx,
                             const struct ompprof_frame *frames, uint32_t n)
{
  ctx->stack_len = n;
  uint32_t frame_bytes = ctx->frame_count * (uint32_t)sizeof(struct ompprof_frame);
  uint32_t size = (uint32_t)(sizeof(struct ompprof_record_header) + body_size + frame_bytes + RING_ALIGN8(n));
  struct ring_res res;
  if (!record_reserve(&p->cb.event, type, size, p->thread_seq, &res))
    return 0;
  uint8_t *out = res.rec + sizeof(struct ompprof_record_header);
  sig_copy(out, body, body_size);
  sig_copy(out + body_size, frames, frame_bytes);
  snapshot_copy(out + body_size + frame_bytes, ctx->rsp, n);
  record_commit(&p->cb.event, &res, size);
  return 1;
}

static uint64_t mix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

/* The identity of a task's creation segment: what decides the frames between
 * the creating call and the encountering task's exit frame is the call site,
 * the segment's length and the code addresses in it (return addresses, at
 * their positions). Locals (fib's n) are left out, so the millions of tasks a
 * recursive program creates at one site in one kind of context share a shape,
 * and only the first of each is sent with its stack. */
static uint64_t creation_shape(const struct ompprof_context *ctx, const struct ompprof_frame *f, uint64_t codeptr,
                               uint32_t n)
{
  /* walked frames: their pcs and their places relative to the first (the agent's own frame) */
  uint64_t walked = ctx->frame_count ? mix(ctx->walk_stop ^ ((uint64_t)ctx->frame_count << 32)) : 0;
  for (uint32_t i = 0; i < ctx->frame_count; i++)
    walked = mix(walked ^ f[i].pc ^ ((f[i].sp - f[0].sp) << 40));
  if (ctx->frame_count)
    walked = mix(walked ^ ctx->rip ^ ((ctx->rsp - f[0].sp) << 40));
  const uint64_t *w = (const uint64_t *)(uintptr_t)ctx->rsp; /* our own stack, within its bounds */
  uint32_t words = n / 8, from = 0;
  /* The agent's and the runtime's frames below the user's call hold stale
   * values that vary from call to call; the user's part starts at the slot
   * holding the call's return address (codeptr_ra). */
  while (from < words && w[from] != codeptr)
    from++;
  if (from == words)
    from = 0;
  uint64_t h;
  uint32_t seq;
  do {
    seq = code_ranges_begin();
    h = mix(codeptr ^ walked ^ ((uint64_t)(words - from) << 40));
    for (uint32_t i = from; i < words; i++)
      if (code_ranges_contains(w[i]))
        h = mix(h ^ w[i] ^ ((uint64_t)(i - from) << 52));
  } while (code_ranges_changed(seq));
  return h | 1;
}

/* Whether this thread sent the stack of a creation of this shape before. Two places a shape may sit in (two independent
 * bits of its hash): two hot shapes that share one place (a recursion alternating between two creation sites) would
 * otherwise evict each other and send their stacks on every creation. */
static uint32_t shape_slot(uint64_t shape, int second)
{
  return (uint32_t)((second ? shape >> 24 : shape >> 8) % SHAPE_CACHE);
}

static int shape_sent(const struct priv *p, uint64_t shape)
{
  return p->cb.shapes[shape_slot(shape, 0)] == shape || p->cb.shapes[shape_slot(shape, 1)] == shape;
}

/* Only once the JVM is sure to get the snapshot. */
static void shape_mark_sent(struct priv *p, uint64_t shape)
{
  uint64_t *first = &p->cb.shapes[shape_slot(shape, 0)], *second = &p->cb.shapes[shape_slot(shape, 1)];
  if (*first == 0 || *second != 0) {
    /* the older occupant of the first place moves to its own other place only if that is free */
    uint64_t old = *first;
    *first = shape;
    if (old && p->cb.shapes[shape_slot(old, 1)] == 0)
      p->cb.shapes[shape_slot(old, 1)] = old;
  } else {
    *second = shape;
  }
}

/* The creation's shape: a kept walk's, if the creation replays one whose
 * shape the JVM has (ctx and *n then stay as captured: nothing to send), else
 * walked now (ctx becomes where the walk stopped, frames and *n what to send)
 * and kept for the creations to come. */
static uint64_t creation_walked(struct priv *p, struct creation_walks *k, struct ompprof_context *ctx, uint64_t codeptr,
                                uint64_t exit_frame, struct ompprof_frame *frames, uint32_t *n);

static uint64_t creation_identify(struct priv *p, struct creation_walks *k, struct ompprof_context *ctx,
                                  uint64_t codeptr, uint64_t exit_frame, struct ompprof_frame *frames, uint32_t *n)
{
  const struct creation_walk *kept = creation_replayed(k, p, ctx, codeptr, exit_frame);
  *n = 0;
  if (kept && shape_sent(p, kept->shape))
    return kept->shape;
  return creation_walked(p, k, ctx, codeptr, exit_frame, frames, n);
}

/* The rare creation no kept walk stands for: walked now. Apart, so that the replay's loop keeps its registers. */
__attribute__((noinline, cold)) static uint64_t creation_walked(struct priv *p, struct creation_walks *k,
                                                                struct ompprof_context *ctx, uint64_t codeptr,
                                                                uint64_t exit_frame, struct ompprof_frame *frames,
                                                                uint32_t *n)
{
  struct ompprof_context captured = *ctx;
  struct walk_log log = {0};
  *n = context_walk(p, ctx, exit_frame, frames, &log);
  uint64_t shape = creation_shape(ctx, frames, codeptr, *n);
  creation_remember(k, &captured, ctx, &log, codeptr, exit_frame, *n, shape);
  return shape;
}

/* Writes a record identified by its creation shape: with its walked frames
 * and stack the first time this thread sends the shape (remembered once the
 * record is in the ring), without them after (OMPPROF_CTX_SAME_SHAPE: the JVM
 * reads no context from it and takes the earlier record's). */
static void emit_shaped(struct priv *p, uint16_t type, void *body, uint32_t body_size, struct ompprof_context *ctx,
                        const struct ompprof_frame *frames, uint32_t n, uint64_t shape)
{
  if (shape_sent(p, shape)) {
    ctx->ctx_flags |= OMPPROF_CTX_SAME_SHAPE;
    ctx->frame_count = 0;
    emit_with_context(p, type, body, body_size, ctx, frames, 0);
  } else if (emit_with_context(p, type, body, body_size, ctx, frames, n)) {
    shape_mark_sent(p, shape);
  }
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
  struct priv *p = priv_for_callback();
  if (!p)
    return;
  if (!p->sig.stack_hi)
    priv_fetch_bounds(p);
  p->thread_type = (uint32_t)type;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  p->sig.unknown_thread = 0;
  if (thread_data)
    thread_data->value = p->thread_seq;
  EMIT(p, OMPPROF_REC_THREAD_BEGIN, struct ompprof_thread_begin, now_ns(), p->os_tid, (uint32_t)type, p->sig.stack_lo,
       p->sig.stack_hi, p->index, 0);
  if (!(__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) & GATE_STOPPED))
    timer_arm(p);
  modules_rescan(p, 0);
}

static void on_thread_end(ompt_data_t *thread_data)
{
  (void)thread_data;
  if (!agent_attached())
    return;
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (!PRIV_VALID(p))
    return;
  signal_check();
  timer_disarm(p);
  callbacks_flush_batches(p, 1);
  if (p->os_tid == ompprof_g.pid) {
    /* libomp calls finalize on the main thread after its thread_end (at
     * exit); the slot stays OWNED so finalize can still write there, and
     * finalize ends it. Samples stop now. Other initial threads (user
     * pthreads running OpenMP) end normally. */
    p->sig.end_deferred = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    EMIT(p, OMPPROF_REC_THREAD_END, struct ompprof_thread_end, now_ns());
    return;
  }
  EMIT(p, OMPPROF_REC_THREAD_END, struct ompprof_thread_end, now_ns());
  slot_end(p);
}

_Static_assert(OMPPROF_PENDING_REGION_BYTES == OMPPROF_MAX_TASK_BATCH * OMPPROF_MAX_PACKED_REGION_ENTRY,
               "a full region batch fits the slot's header");

/* The PARALLEL_BEGIN an open region of a known shape stands for, written
 * when its end will not come: the thread or the program ends inside it. */
static void emit_open_region(struct priv *p, const struct ompprof_open_region *o)
{
  struct ompprof_parallel_begin b = {.time_ns = now_ns(),
                                     .parallel_id = o->parallel_id,
                                     .parent_task_id = o->parent_task_id,
                                     .codeptr_ra = o->codeptr_ra,
                                     .shape = o->shape,
                                     .ctx = {.ctx_flags = OMPPROF_CTX_SAME_SHAPE}};
  emit_with_context(p, OMPPROF_REC_PARALLEL_BEGIN, &b, sizeof b, &b.ctx, NULL, 0);
}

/* Writes a pack of task creations or ended regions as one record and starts
 * the next. A full ring drops the batch, counted like any record. */
static void flush_pack(struct priv *p, uint16_t type, struct task_pack *t)
{
  if (t->count == 0)
    return;
  /* the two payloads' shared head; a region batch adds its base end time */
  struct {
    struct ompprof_task_batch_packed head;
    uint64_t base_time;
  } b = {{now_ns(), t->count, t->len, t->base_task_id}, t->base_time};
  _Static_assert(sizeof b == sizeof(struct ompprof_region_batch_packed), "region batch layout");
  uint32_t head = type == OMPPROF_REC_REGION_BATCH_PACKED ? (uint32_t)sizeof b : (uint32_t)sizeof b.head;
  uint32_t body = head + t->len;
  uint32_t size = (uint32_t)(sizeof(struct ompprof_record_header) + ((body + 7u) & ~7u));
  struct ring_res res;
  if (record_reserve(&p->cb.event, type, size, p->thread_seq, &res)) {
    uint8_t *out = res.rec + sizeof(struct ompprof_record_header);
    sig_copy(out, &b, head);
    sig_copy(out + head, t->bytes, t->len);
    for (uint32_t i = body; i < size - sizeof(struct ompprof_record_header); i++)
      out[i] = 0;
    record_commit(&p->cb.event, &res, size);
  }
  task_pack_reset(t);
  if (type == OMPPROF_REC_REGION_BATCH_PACKED)
    p->slot->pending_count = 0;
}

/* Adds an ended region to the thread's pack, writing the pack first when the
 * entry belongs in the next one, and after when it is full. */
static void pack_region(struct priv *p, uint64_t id, uint64_t parent_id, uint64_t shape, uint64_t time_ns)
{
  struct task_pack *t = &p->cb.regions;
  if (!task_pack_add_timed(t, id, parent_id, shape, time_ns)) {
    flush_pack(p, OMPPROF_REC_REGION_BATCH_PACKED, t);
    task_pack_add_timed(t, id, parent_id, shape, time_ns); /* an empty batch takes any entry */
  }
  if (t->count == OMPPROF_MAX_TASK_BATCH)
    flush_pack(p, OMPPROF_REC_REGION_BATCH_PACKED, t);
}

/* The same for a creation, inlined into the callback that a task program calls by the million. */
static inline __attribute__((always_inline)) void pack_creation(struct priv *p, uint64_t id, uint64_t parent,
                                                                uint64_t shape)
{
  struct task_pack *t = &p->cb.tasks;
  if (__builtin_expect(!task_pack_add(t, id, parent, shape), 0)) {
    flush_pack(p, OMPPROF_REC_TASK_BATCH_PACKED, t);
    task_pack_add_any(t, id, parent, shape); /* an empty batch takes any entry */
  }
  if (__builtin_expect(t->count == OMPPROF_MAX_TASK_BATCH, 0))
    flush_pack(p, OMPPROF_REC_TASK_BATCH_PACKED, t);
}

/* Writes the thread's batched task creations and ended regions (on a full
 * batch, when the tool is paused and at finalize); at the thread's end, its
 * open regions' begins too. */
void callbacks_flush_batches(struct priv *p, int thread_ends)
{
  if (thread_ends) {
    struct ompprof_slot_header *s = p->slot;
    for (uint32_t i = 0; i < s->open_regions && i < OMPPROF_OPEN_REGIONS; i++)
      emit_open_region(p, &s->open_region[i]);
    s->open_regions = 0;
  }
  flush_pack(p, OMPPROF_REC_TASK_BATCH_PACKED, &p->cb.tasks);
  flush_pack(p, OMPPROF_REC_REGION_BATCH_PACKED, &p->cb.regions);
}

static void on_parallel_begin(ompt_data_t *encountering_task_data, const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism, int flags,
                              const void *codeptr_ra)
{
  struct ompprof_parallel_begin b;
  CAPTURE_HERE(&b.ctx);
  int attached;
  struct priv *p = priv_fast_attached(&attached);
  if (!attached)
    return;
  uint64_t id = new_parallel_id();
  if (parallel_data)
    parallel_data->value = id;
  if (!p)
    return;
  wall_task_suspend(p, encountering_task_data, 1); /* for its view at the region's end */
  /* before the record, so the JVM knows every module the region's code and
   * stack can point into by the time it reads PARALLEL_BEGIN */
  modules_rescan(p, 0);
  b.time_ns = 0; /* read below, for a begin record only; until then no stale value in the stack the shape may hash */
  b.parallel_id = id;
  b.parent_task_id = data_value(encountering_task_data);
  callbacks_task_referenced(p, b.parent_task_id);
  b.codeptr_ra = ptr_value(codeptr_ra);
  b.enc_exit_frame = exit_ptr(p, encountering_task_frame);
  b.enc_enter_frame = frame_ptr(encountering_task_frame, 1);
  b.requested_team_size = requested_parallelism;
  b.flags = (uint32_t)flags;
  struct ompprof_frame frames[CONTEXT_WALK_FRAMES];
  uint32_t n;
  b.shape = 0; /* in the hashed stack itself: no stale value */
  b.shape = creation_identify(p, &p->cb.region_walks, &b.ctx, b.codeptr_ra, b.enc_exit_frame, frames, &n);
  direct_bodies_region_begin(p, id, encountering_task_frame, requested_parallelism, flags, b.codeptr_ra);
  struct ompprof_slot_header *s = p->slot;
  if (shape_sent(p, b.shape) && s->open_regions < OMPPROF_OPEN_REGIONS) {
    /* written with its end, packed (region_packed) */
    s->open_region[s->open_regions++] = (struct ompprof_open_region){id, b.parent_task_id, b.shape, b.codeptr_ra};
    return;
  }
  b.time_ns = now_ns(); /* only here: a packed region has its end's time alone (a clock read a region saved) */
  emit_shaped(p, OMPPROF_REC_PARALLEL_BEGIN, &b, sizeof b, &b.ctx, frames, n, b.shape);
}

/* The batch's newest entry and its counts, copied to the slot's header for
 * the JVM should the program die before the batch is written: the bytes
 * first, the count last. */
static void pending_mirror(struct ompprof_slot_header *s, const struct task_pack *t)
{
  uint32_t from = s->pending_count ? s->pending_bytes : 0;
  sig_copy(s->pending_region + from, t->bytes + from, t->len - from);
  s->pending_base_parallel_id = t->base_task_id;
  s->pending_base_end_ns = t->base_time;
  s->pending_bytes = t->len;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  s->pending_count = t->count;
}

/* Whether the region was this thread's innermost open one of a known shape,
 * now packed with its end: it then needs no record of its own. */
static int region_packed(struct priv *p, uint64_t id)
{
  struct ompprof_slot_header *s = p->slot;
  uint32_t n = s->open_regions;
  if (n == 0 || n > OMPPROF_OPEN_REGIONS || s->open_region[n - 1].parallel_id != id)
    return 0;
  const struct ompprof_open_region o = s->open_region[n - 1];
  s->open_regions = n - 1;
  struct task_pack *t = &p->cb.regions;
  pack_region(p, o.parallel_id, o.parent_task_id, o.shape, now_ns());
  if (t->count) /* not written yet */
    pending_mirror(s, t);
  return 1;
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data, int flags,
                            const void *codeptr_ra)
{
  struct priv *p = priv_fast();
  if (!p)
    return;
  /* The thread goes back to the encountering task's code, where it may block (a sleep, an MPI wait between regions)
   * before a signal samples it. Its view must be of that task again, not of the region's implicit task, whose code
   * has returned: the sampler would take the block for a runtime wait and signal it, cutting the sleep short. It
   * gets the view it had when the region began, else one asked of the runtime (libomp has made it current again). */
  direct_bodies_region_end(p, data_value(parallel_data));
  if (!wall_task_resume(p, encountering_task_data))
    wall_view_switch(p, encountering_task_data, 0, &p->cb.team);
  if (region_packed(p, data_value(parallel_data)))
    return;
  EMIT(p, OMPPROF_REC_PARALLEL_END, struct ompprof_parallel_end, now_ns(), data_value(parallel_data),
       data_value(encountering_task_data), ptr_value(codeptr_ra), (uint32_t)flags, 0);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism, unsigned int index, int flags)
{
  if (endpoint != ompt_scope_begin) {
    /* the end says nothing the profile uses (libomp passes no region there); the thread leaves the team */
    struct priv *ended = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
    if (agent_attached() && PRIV_VALID(ended))
      ended->cb.team.known = 0;
    return;
  }
  int attached;
  struct priv *p = priv_fast_attached(&attached);
  if (!attached)
    return;
  if (task_data && task_data->value == 0)
    task_data->value = new_task_id(p);
  /* The initial task's implicit parallel region (and a league) has no
   * parallel_begin; give it an id so samples in it are attributable. */
  int unannounced = parallel_data && parallel_data->value == 0;
  if (unannounced)
    parallel_data->value = new_parallel_id();
  if (!p)
    return;
  struct ompprof_implicit_task *t = &p->cb.implicit;
  t->parallel_id = data_value(parallel_data);
  t->task_id = data_value(task_data);
  t->endpoint = (uint32_t)endpoint;
  t->actual_parallelism = actual_parallelism;
  t->index = index;
  t->flags = (uint32_t)flags;
  p->cb.implicit_pending = 1;
  /* What only this record says (which tasks and regions are initial, a region
   * no parallel_begin announced) is written at once; a region's ordinary
   * implicit tasks, one per thread per region, only if something refers to
   * them. */
  uint32_t view_flags = 0; /* an initial task, or a league's: its view is asked of the runtime */
  if ((flags & ompt_task_initial) || unannounced) {
    callbacks_task_referenced(p, t->task_id);
  } else {
    p->cb.team = (struct wall_team){t->parallel_id, (int32_t)index, 1, p->cb.team.switches};
    view_flags = (uint32_t)flags;
  }
  direct_bodies_implicit_begin(p, t->parallel_id, task_data);
  wall_view_switch(p, task_data, view_flags, &p->cb.team);
}

void callbacks_implicit_write(struct priv *p)
{
  p->cb.implicit_pending = 0;
  p->cb.implicit.time_ns = now_ns(); /* not at the begin: a clock read per thread per region that nothing reads */
  struct {
    struct ompprof_record_header h;
    struct ompprof_implicit_task b;
  } rec;
  _Static_assert(sizeof rec == 16 + sizeof rec.b, "record layout");
  rec.b = p->cb.implicit;
  record_write(&p->cb.event, OMPPROF_REC_IMPLICIT_TASK, &rec, sizeof rec, p->thread_seq);
}

/* A creation whose shape the JVM does not have yet (or that no kept walk stands for): the full record, with the
 * creating context's frames and stack the first time. Apart, so that the usual creation's frame stays small. */
__attribute__((noinline, cold)) static void task_create_record(struct priv *p, const struct ompprof_context *ctx,
                                                               const ompt_frame_t *encountering_task_frame,
                                                               uint64_t parent, uint64_t id, int flags,
                                                               int has_dependences, uint64_t codeptr)
{
  struct ompprof_task_create b;
  b.ctx = *ctx;
  b.parent_task_id = parent;
  b.task_id = id;
  b.codeptr_ra = codeptr;
  b.enc_exit_frame = exit_ptr(p, encountering_task_frame);
  b.enc_enter_frame = frame_ptr(encountering_task_frame, 1);
  b.flags = (uint32_t)flags;
  b.has_dependences = (uint32_t)has_dependences;
  struct ompprof_frame frames[CONTEXT_WALK_FRAMES];
  uint32_t n;
  b.shape = creation_identify(p, &p->cb.task_walks, &b.ctx, codeptr, b.enc_exit_frame, frames, &n);
  if (shape_sent(p, b.shape)) {
    pack_creation(p, id, parent, b.shape);
    return;
  }
  b.time_ns = now_ns();
  if (emit_with_context(p, OMPPROF_REC_TASK_CREATE, &b, sizeof b, &b.ctx, frames, n)) {
    shape_mark_sent(p, b.shape);
  }
}

/* Whether a frame address lies on this thread's own stack. */
static int own_stack(const struct priv *p, uint64_t addr)
{
  return p->sig.stack_hi == 0 || (addr >= p->sig.stack_lo && addr < p->sig.stack_hi);
}

/*
 * A creation in the name of a task that runs on another thread's stack: libomp's taskloop splits its iterations in
 * tasks that other threads run, and they create the chunks' tasks for the taskloop's own task, which waits on its
 * own thread. No walk of this thread's stack meets that task's exit frame: each such creation walked this thread's
 * whole stack, and its chunks' samples came out under the taskloop's task, `<truncated>`, then this thread's start
 * (EPCC schedbench's taskloop). The creating task's frames are not here to take, and libomp points the task's enter
 * frame and the creation's codeptr_ra into this thread's runtime code. The task this thread runs is the splitting
 * task, which the same task created at the same taskloop, on its own stack: the record names it, and the JVM gives
 * the creation that task's context (or the creating task's and a truncation marker, if it was not so created). The
 * running task stands for the creation's shape: the chunks a splitting task creates after the first come packed.
 */
static __attribute__((noinline, cold)) void foreign_creation(struct priv *p, uint64_t exit, uint64_t enter,
                                                             uint64_t parent, uint64_t id, int flags,
                                                             int has_dependences, uint64_t codeptr)
{
  int running_flags = 0;
  ompt_data_t *running = NULL;
  if (ompprof_g.get_task_info(0, &running_flags, &running, NULL, NULL, NULL) == 0 ||
      !(running_flags & ompt_task_explicit) || running == NULL)
    running = NULL;
  uint64_t shape = running ? OMPPROF_AS_RUNNING_SHAPE | running->value : 0;
  if (shape && shape_sent(p, shape)) {
    pack_creation(p, id, parent, shape);
    return;
  }
  struct ompprof_task_create b = {.time_ns = now_ns(),
                                  .ctx = {.ctx_flags = OMPPROF_CTX_OFF_STACK | OMPPROF_CTX_AS_RUNNING},
                                  .shape = shape,
                                  .parent_task_id = parent,
                                  .task_id = id,
                                  .codeptr_ra = codeptr,
                                  .enc_exit_frame = exit,
                                  .enc_enter_frame = enter,
                                  .flags = (uint32_t)flags,
                                  .has_dependences = (uint32_t)has_dependences};
  if (emit_with_context(p, OMPPROF_REC_TASK_CREATE, &b, sizeof b, &b.ctx, NULL, 0) && shape)
    shape_mark_sent(p, shape);
}

/* A task program's millions of creations mostly replay a kept walk of a shape the JVM has: three ids and the shape
 * go into the thread's batch. The context is captured here, in the frame the kept walks start from. */
static void on_task_create(ompt_data_t *encountering_task_data, const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences, const void *codeptr_ra)
{
  struct ompprof_context ctx;
  CAPTURE_HERE(&ctx);
  int attached;
  struct priv *p = priv_fast_attached(&attached);
  if (!attached)
    return;
  uint64_t id = 0;
  if (new_task_data) {
    if (new_task_data->value == 0)
      new_task_data->value = new_task_id(p);
    id = new_task_data->value;
  }
  if (!p)
    return;
  uint64_t parent = data_value(encountering_task_data), codeptr = ptr_value(codeptr_ra);
  /* begin_if0 alone marks the creator's enter frame as the application's (tasks libomp runs at once are undeferred
   * too: a one-thread team's, every one) */
  if (__builtin_expect((flags & ompt_task_undeferred) && encountering_task_frame &&
                           (encountering_task_frame->enter_frame_flags & ompt_frame_application),
                       0))
    direct_bodies_undeferred(p, ctx.rsp, encountering_task_frame, new_task_data, codeptr);
  callbacks_task_referenced(p, parent);
  uint64_t exit = exit_ptr(p, encountering_task_frame);
  if (__builtin_expect(exit != 0 && !own_stack(p, exit), 0)) {
    foreign_creation(p, exit, frame_ptr(encountering_task_frame, 1), parent, id, flags, has_dependences, codeptr);
    return;
  }
  const struct creation_walk *kept = creation_replayed(&p->cb.task_walks, p, &ctx, codeptr, exit);
  if (kept && shape_sent(p, kept->shape))
    pack_creation(p, id, parent, kept->shape);
  else
    task_create_record(p, &ctx, encountering_task_frame, parent, id, flags, has_dependences, codeptr);
}

/*
 * Mutex events: locks, critical, ordered and atomic. Libraries take locks
 * millions of times a second, nearly always uncontended, and directed blame
 * only needs, for each sampled moment of waiting, the wait and the hold that
 * covered it. So nothing is written for an uncontended acquisition; a few
 * stores keep what a later record would need:
 *  - mutex_acquire notes the mutex being acquired (acq_id); a sample that
 *    finds it set marks the mutex waited for (mutex_table.h) and notes the
 *    wait's first sample time;
 *  - mutex_acquired pushes the hold with the mark generation of the moment;
 *    after a sampled wait it writes ACQUIRE (at the wait's first sample) and
 *    ACQUIRED, and after a wait during which its mutex was marked, ACQUIRED;
 *  - mutex_released writes the hold (ACQUIRED, RELEASED) when its ACQUIRED
 *    was written, or when its mutex was marked during it: one load when
 *    nothing was marked anywhere, one look-up when something was. A waiter
 *    is often handed the mutex while it is off a CPU (more threads than
 *    cores); nobody holds it at the waiters' samples then, and blame charges
 *    that waiting to the holds around the hand-over, which these are.
 * The sample that marks takes its time after the mark, so every hold that
 * covers a waiter's sample sees the mark at its release: a holder that
 * acquired before anyone waited is still written. The hold's start is then
 * stamped with the earliest moment anyone could have looked (the first mark
 * after the acquisition, or the holder's own first sample in the hold),
 * never before the acquisition, so holds of one mutex never overlap.
 */
static inline void bump(uint64_t *c, uint64_t by)
{
  __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + by, __ATOMIC_RELAXED);
}

static void mutex_record(struct priv *p, uint64_t time_ns, uint32_t event, ompt_mutex_t kind, unsigned hint,
                         unsigned impl, ompt_wait_id_t wait_id, uint64_t codeptr_ra)
{
  EMIT(p, OMPPROF_REC_MUTEX, struct ompprof_mutex, time_ns, wait_id, codeptr_ra, event, (uint32_t)kind, hint, impl);
}

static int is_test(ompt_mutex_t kind)
{
  return kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock;
}

/* The earliest time a hold acquired at generation `gen` can be said to have
 * begun without claiming a moment before its acquisition: the first mark
 * made after it (anyone's), or the holder's own first sample in it. */
static uint64_t hold_start(const struct held *e, uint64_t end)
{
  uint64_t now_gen = mutex_gen(), start = e->first_own_ns ? e->first_own_ns : end;
  uint64_t from = now_gen > MUTEX_GEN_TIMES ? now_gen - MUTEX_GEN_TIMES + 1 : 1;
  if (from <= e->gen)
    from = e->gen + 1;
  for (uint64_t g = from; g <= now_gen; g++) {
    uint64_t t = mutex_gen_time_of(g);
    if (t) {
      if (t < start)
        start = t;
      break;
    }
  }
  return start;
}

void callbacks_current_task(uint64_t *task_id, uint64_t *exit_frame, uint64_t *enter_frame)
{
  ompt_data_t *task = NULL;
  ompt_frame_t *frame = NULL;
  *task_id = *exit_frame = *enter_frame = 0;
  if (!ompprof_g.get_task_info || ompprof_g.get_task_info(0, NULL, &task, &frame, NULL, NULL) == 0)
    return;
  *task_id = data_value(task);
  *exit_frame = frame_ptr(frame, 0);
  *enter_frame = frame_ptr(frame, 1);
}

/* Writes where a written hold ended: the holder's calling context at the
 * release, which blame charges when the holder was not sampled in the hold
 * (as HPCToolkit charges a lock's waiting to the context of its release).
 * Walked and identified like a creation, so a site the thread sent before
 * costs its fixed part only. */
static __attribute__((noinline)) void release_site(struct priv *p, uint64_t end, uint64_t wait_id, uint64_t codeptr)
{
  struct ompprof_mutex_site b;
  CAPTURE_HERE(&b.ctx);
  b.time_ns = end;
  b.wait_id = wait_id;
  b.codeptr_ra = codeptr;
  uint64_t enter_frame; /* the mutex callbacks' runtime sets none: the site ends at codeptr */
  callbacks_current_task(&b.task_id, &b.enc_exit_frame, &enter_frame);
  callbacks_task_referenced(p, b.task_id);
  struct ompprof_frame frames[CONTEXT_WALK_FRAMES];
  uint32_t n;
  b.shape = 0; /* in the hashed stack itself: no stale value */
  b.shape = creation_identify(p, &p->cb.release_walks, &b.ctx, codeptr, b.enc_exit_frame, frames, &n);
  emit_shaped(p, OMPPROF_REC_MUTEX_SITE, &b, sizeof b, &b.ctx, frames, n, b.shape);
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                             const void *codeptr_ra)
{
  struct priv *p = priv_fast();
  if (!p)
    return;
  if (is_test(kind)) { /* a test never waits */
    bump(&p->slot->mutex_skipped, 1);
    return;
  }
  p->cb.acq_kind = (uint32_t)kind;
  p->cb.acq_hint = hint;
  p->cb.acq_impl = impl;
  p->cb.acq_codeptr = ptr_value(codeptr_ra);
  p->cb.acq_gen = mutex_gen();
  p->sig.acq_first_ns = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  p->sig.acq_id = wait_id;
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
  struct priv *p = priv_fast();
  if (!p)
    return;
  uint64_t gen = mutex_gen();
  int mine = p->sig.acq_id == wait_id;
  p->sig.acq_id = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  uint64_t first = mine ? p->sig.acq_first_ns : 0, start = 0;
  int handed = mine && !first && gen != p->cb.acq_gen && mutex_marked_gen(wait_id) > p->cb.acq_gen;
  if (first) {
    start = now_ns();
    mutex_record(p, first, OMPPROF_MUTEX_ACQUIRE, (ompt_mutex_t)p->cb.acq_kind, p->cb.acq_hint, p->cb.acq_impl, wait_id,
                 p->cb.acq_codeptr);
    mutex_record(p, start, OMPPROF_MUTEX_ACQUIRED, kind, 0, 0, wait_id, ptr_value(codeptr_ra));
    wall_view_resumed(p);
  } else {
    if (!is_test(kind))
      bump(&p->slot->mutex_skipped, 1); /* the acquire */
    if (handed) {                       /* waited behind a sampled waiter: one of those it waited for */
      start = now_ns();
      mutex_record(p, start, OMPPROF_MUTEX_ACQUIRED, kind, 0, 0, wait_id, ptr_value(codeptr_ra));
    }
  }
  uint32_t n = p->sig.held_n;
  if (n == HELD_MAX) { /* too deep to track: written as it happens */
    if (!start)
      mutex_record(p, now_ns(), OMPPROF_MUTEX_ACQUIRED, kind, 0, 0, wait_id, ptr_value(codeptr_ra));
    return;
  }
  p->sig.held[n] = (struct held){wait_id, gen, 0, start};
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  p->sig.held_n = n + 1;
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
  struct priv *p = priv_fast();
  if (!p)
    return;
  uint32_t n = p->sig.held_n, i = n;
  while (i > 0 && p->sig.held[i - 1].wait_id != wait_id)
    i--;
  if (i == 0) { /* not tracked (held too deep, or acquired before this slot) */
    mutex_record(p, now_ns(), OMPPROF_MUTEX_RELEASED, kind, 0, 0, wait_id, ptr_value(codeptr_ra));
    return;
  }
  struct held e = p->sig.held[i - 1];
  for (uint32_t j = i; j < n; j++)
    p->sig.held[j - 1] = p->sig.held[j];
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  p->sig.held_n = n - 1;
  if (!e.start_ns && (__builtin_expect(mutex_gen() == e.gen, 1) || mutex_marked_gen(wait_id) <= e.gen)) {
    bump(&p->slot->mutex_skipped, 2);
    return;
  }
  uint64_t end = now_ns();
  if (!e.start_ns)
    mutex_record(p, hold_start(&e, end), OMPPROF_MUTEX_ACQUIRED, kind, 0, 0, wait_id, 0);
  mutex_record(p, end, OMPPROF_MUTEX_RELEASED, kind, 0, 0, wait_id, ptr_value(codeptr_ra));
  release_site(p, end, wait_id, ptr_value(codeptr_ra));
}

static void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                         const void *codeptr_ra)
{
  struct priv *p = priv_fast();
  if (p)
    mutex_record(p, now_ns(), OMPPROF_MUTEX_LOCK_INIT, kind, hint, impl, wait_id, ptr_value(codeptr_ra));
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
  struct priv *p = priv_fast();
  if (p)
    mutex_record(p, now_ns(), OMPPROF_MUTEX_LOCK_DESTROY, kind, 0, 0, wait_id, ptr_value(codeptr_ra));
}

/* A nested lock taken again or released while still held: the outer hold is
 * what blame uses, so these are only counted. */
static void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
  (void)endpoint;
  (void)wait_id;
  (void)codeptr_ra;
  struct priv *p = priv_fast();
  if (p)
    bump(&p->slot->mutex_skipped, 1);
}

/* Wall mode only (wall.c): nothing is recorded, samples carry their task ids. A task that ended is still current
 * here: the resumed one's view is the one it had when it was suspended, not asked. */
static inline void task_scheduled(struct priv *p, const ompt_data_t *prior_task_data,
                                  ompt_task_status_t prior_task_status, const ompt_data_t *next_task_data)
{
  int ended = prior_task_status == ompt_task_complete || prior_task_status == ompt_task_cancel ||
              prior_task_status == ompt_task_detach || prior_task_status == ompt_task_late_fulfill;
  if (ended) {
    if (!wall_task_resume(p, next_task_data))
      wall_view_drop(p);
  } else if (next_task_data == NULL) {
    wall_view_drop(p);
  } else {
    wall_task_suspend(p, prior_task_data, 0);
    wall_view_switch(p, next_task_data, ompt_task_explicit, &p->cb.team);
  }
}

/* The thread's state not at hand (its first callback, or the agent not attached): apart, so that the usual call
 * saves no registers for it. */
__attribute__((noinline, cold)) static void task_scheduled_slow(const ompt_data_t *prior_task_data,
                                                                ompt_task_status_t prior_task_status,
                                                                const ompt_data_t *next_task_data)
{
  struct priv *p = priv_for_callback();
  if (p)
    task_scheduled(p, prior_task_data, prior_task_status, next_task_data);
}

static void on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data)
{
  struct priv *p = priv_at_hand();
  if (__builtin_expect(p != NULL, 1))
    task_scheduled(p, prior_task_data, prior_task_status, next_task_data);
  else
    task_scheduled_slow(prior_task_data, prior_task_status, next_task_data);
}

/* omp_control_tool: 1 start/resume, 2 pause, 3 flush, 4 end (OpenMP 5.x,
 * omp_control_tool_t). Pause and start scope the samples (the handler drops
 * signals while the gate is shut); flush writes what the thread holds back
 * (batched task creations); end stops sampling for good. The return value
 * goes back to the program; negative values are reserved by the
 * specification, so success is 0. */
static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr_ra)
{
  (void)arg;
  struct agent *g = &ompprof_g;
  if (!agent_attached())
    return 0;
  switch (command) {
  case 1:
    __atomic_and_fetch(&g->gate, ~(uint32_t)GATE_PAUSED, __ATOMIC_RELAXED);
    break;
  case 2:
    __atomic_or_fetch(&g->gate, GATE_PAUSED, __ATOMIC_RELAXED);
    break;
  case 4:
    __atomic_or_fetch(&g->gate, GATE_STOPPED, __ATOMIC_RELAXED);
    break;
  default:
    break;
  }
  struct priv *p = priv_for_callback();
  if (!p)
    return 0;
  if (command == 3 || command == 4)
    callbacks_flush_batches(p, 0);
  EMIT(p, OMPPROF_REC_CONTROL_TOOL, struct ompprof_control_tool, now_ns(), modifier, ptr_value(codeptr_ra),
       (uint32_t)command, 0);
  modules_rescan(p, 0);
  return 0;
}

void callbacks_register(void)
{
  static const struct {
    ompt_callbacks_t event;
    ompt_callback_t fn;
  } cbs[] = {
      {ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin},
      {ompt_callback_thread_end, (ompt_callback_t)on_thread_end},
      {ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin},
      {ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end},
      {ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task},
      {ompt_callback_task_create, (ompt_callback_t)on_task_create},
      /* Only what the profile uses. Not registered, each being records per thread per
       * region or task that nothing reads (a region-heavy loop wrote 18 records a
       * region with them, 4 without): task_schedule (samples carry their task ids; wall
       * mode registers it below, writing nothing),
       * sync_region and sync_region_wait (samples carry the barrier and taskwait
       * states), work and masked (samples are in the loop's or masked block's code). */
      {ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire},
      {ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex_acquired},
      {ompt_callback_mutex_released, (ompt_callback_t)on_mutex_released},
      {ompt_callback_lock_init, (ompt_callback_t)on_lock_init},
      {ompt_callback_lock_destroy, (ompt_callback_t)on_lock_destroy},
      {ompt_callback_nest_lock, (ompt_callback_t)on_nest_lock},
      {ompt_callback_control_tool, (ompt_callback_t)on_control_tool},
  };
  struct agent *g = &ompprof_g;
  if (g->wall_sampler &&
      g->set_callback(ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule) == ompt_set_always)
    g->callbacks_always |= 1ull << ompt_callback_task_schedule;
  for (size_t i = 0; i < sizeof cbs / sizeof cbs[0]; i++) {
    ompt_set_result_t r = g->set_callback(cbs[i].event, cbs[i].fn);
    if (r == ompt_set_always)
      g->callbacks_always |= 1ull << cbs[i].event;
    if (g->debug && r != ompt_set_always)
      fprintf(stderr, "ompprof agent: callback %d registered with result %d\n", (int)cbs[i].event, (int)r);
  }
  device_register(g->set_callback, &g->callbacks_always, g->debug);
}
