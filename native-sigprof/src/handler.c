/*
 * The SIGPROF handler: one SAMPLE record per signal, written straight into
 * the sample ring of the interrupted thread's slot.
 *
 * Everything reachable from here is async-signal-safe: no malloc, no stdio,
 * no locks; the only calls leave the agent for clock_gettime (vDSO) and the
 * OMPT inquiry functions, which the OpenMP specification declares
 * async-signal-safe. The library is linked with -z now so that not even a
 * lazy PLT resolution can happen in here.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "agent_state.h"
#include "capture.h"
#include "clock.h"
#include "direct_bodies.h"
#include "frame_walk.h"
#include "handler.h"
#include "hist.h"
#include "mutex_table.h"
#include "record.h"
#include "slots.h"
#include "thread_state.h"
#include "timers.h"
#include "wall.h"

/* Worst case: every OMPT level present. Reserving it up front lets the
 * levels be written straight into the ring; the record is then committed at
 * its real size. */
#define SAMPLE_FIXED                                                                                                   \
  ((uint32_t)(sizeof(struct ompprof_record_header) + sizeof(struct ompprof_sample) +                                   \
              OMPPROF_MAX_LEVELS * sizeof(struct ompprof_task_level) +                                                 \
              OMPPROF_MAX_LEVELS * sizeof(struct ompprof_parallel_level) +                                             \
              (OMPPROF_MAX_WALK_FRAMES + 1) * sizeof(struct ompprof_frame) + OMPPROF_RBX_BYTES +                       \
              sizeof(struct ompprof_upper_window)))

/* A frame register this far above the sampled rsp is taken for one: farther, it is likelier a pointer to some
 * outer frame's data. And the window starts this far below it, where such frames keep what they save. */
#define UPPER_REACH (1u << 20)
#define UPPER_BELOW 128u

static inline void bump64(uint64_t *c, uint64_t by) /* signal-safe */
{
  /* single writer (the owning thread), so no RMW is needed */
  __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + by, __ATOMIC_RELAXED);
}

static inline void count_disabled(void) /* signal-safe */
{
  /* shared by all threads: a real RMW */
  __atomic_add_fetch(&ompprof_g.hdr->disabled_signals, 1, __ATOMIC_RELAXED);
}

/*
 * libomp 19 can hand back "NULL + offset" pointers from the inquiry
 * functions: when an explicit task is sampled, __ompt_get_task_info_internal
 * walks the team chain one step further than the task chain and returns
 * &team->t.ompt_team_info for team == NULL (seen as parallel_data == 0x220).
 * Such values are offsets into a NULL struct; ordinary programs map nothing
 * in the first 64 KiB (vm.mmap_min_addr is 4 to 64 KiB), so anything there is
 * treated as absent instead of being dereferenced.
 */
#define PLAUSIBLE(p) ((uintptr_t)(p) >= 65536u)

uint32_t handler_fill_levels(const struct priv *p, struct ompprof_sample *s, uint8_t *out) /* signal-safe */
{
  struct agent *g = &ompprof_g;
  struct ompprof_task_level *tl = (struct ompprof_task_level *)(void *)out;
  uint32_t nt = 0, np = 0;

  s->omp_thread_num = -1;
  for (; nt < OMPPROF_MAX_LEVELS; nt++) {
    int flags = 0, thread_num = -1;
    ompt_data_t *task = NULL, *par = NULL;
    ompt_frame_t *frame = NULL;
    int r = g->get_task_info((int)nt, &flags, &task, &frame, &par, &thread_num);
    if (r == 0)
      break;
    struct ompprof_task_level *l = &tl[nt];
    int have_frame = PLAUSIBLE(frame);
    l->exit_frame = have_frame ? direct_bodies_exit(p, frame, (uint64_t)(uintptr_t)frame->exit_frame.ptr) : 0;
    l->enter_frame = have_frame ? (uint64_t)(uintptr_t)frame->enter_frame.ptr : 0;
    l->exit_frame_flags = have_frame ? (uint32_t)frame->exit_frame_flags : 0;
    l->enter_frame_flags = have_frame ? (uint32_t)frame->enter_frame_flags : 0;
    l->task_flags = (uint32_t)flags;
    l->thread_num = thread_num;
    l->task_id = PLAUSIBLE(task) ? task->value : 0;
    l->parallel_id = PLAUSIBLE(par) ? par->value : 0;
    l->info_result = (uint32_t)r;
    l->pad = 0;
    if (nt == 0)
      s->omp_thread_num = thread_num;
  }

  struct ompprof_parallel_level *pl = (struct ompprof_parallel_level *)(void *)(tl + nt);
  for (; np < OMPPROF_MAX_LEVELS; np++) {
    ompt_data_t *par = NULL;
    int team_size = 0;
    int r = g->get_parallel_info((int)np, &par, &team_size);
    if (r == 0)
      break;
    pl[np].parallel_id = PLAUSIBLE(par) ? par->value : 0;
    pl[np].team_size = (uint32_t)team_size;
    pl[np].info_result = (uint32_t)r;
  }
  s->task_levels = nt;
  s->parallel_levels = np;
  return nt * (uint32_t)sizeof(struct ompprof_task_level) + np * (uint32_t)sizeof(struct ompprof_parallel_level);
}

/* Of `n` bytes of stack from `from`, those worth sending. Frames outward of
 * the current task's exit frame are the runtime's and the task's creation
 * context, which the creation record already holds: copying them in every
 * sample would cost time and ring space for nothing. The cut keeps
 * EXIT_FRAME_MARGIN bytes past the exit frame so that the runtime frame it
 * names can still be recognized. */
static uint64_t up_to_exit(uint64_t from, uint64_t n, const struct ompprof_task_level *level0,
                           uint32_t levels) /* signal-safe */
{
  if (levels == 0 || level0->exit_frame <= from || level0->exit_frame - from + EXIT_FRAME_MARGIN >= n)
    return n;
  return level0->exit_frame - from + EXIT_FRAME_MARGIN;
}

/* The snapshot's bytes cut there; a cut snapshot is not TRUNCATED. */
static uint32_t trim_to_task(struct ompprof_context *ctx, const struct ompprof_task_level *level0, uint32_t levels,
                             uint32_t n) /* signal-safe */
{
  uint64_t keep = up_to_exit(ctx->rsp, n, level0, levels);
  if (keep >= n)
    return n;
  ctx->ctx_flags &= ~(uint32_t)OMPPROF_CTX_TRUNCATED;
  ctx->stack_len = (uint32_t)keep;
  return (uint32_t)keep;
}

/* The frames of the sample as far as the unwind rows reach (frame_walk.h); ctx becomes the frame
 * where the walk stopped, from which a snapshot continues when the walk could not finish, and *rbx
 * that frame's rbx where it is known (else *rbx_known is 0). In a checking recording ctx stays the
 * sampled registers and every walked frame is written. */
static uint32_t walk_frames(struct priv *p, struct ompprof_context *ctx, uint64_t *rbx, int *rbx_known,
                            const struct ompprof_task_level *level0, uint32_t levels, struct ompprof_frame *out,
                            uint32_t *stop) /* signal-safe */
{
  int mode = ompprof_g.walk;
  *stop = OMPPROF_WALK_CONTINUE;
  *rbx_known = mode != WALK_CHECK; /* the sampled one, unless a walk below moves ctx */
  if (mode == WALK_OFF || p->sig.stack_hi == 0)
    return 0;
  /* a task whose exit frame lies below the sampled frame has returned (the runtime still names it current while
   * it finishes a task it ran at once): no walk reaches that frame, and the JVM places the sample by its sp. Not the
   * initial task, whose frames the JVM walks out to main whatever its exit frame says. */
  if (levels > 0 && (level0->task_flags & ompt_task_initial) == 0 && level0->exit_frame != 0 &&
      ctx->rsp >= level0->exit_frame + EXIT_FRAME_CFA && mode != WALK_CHECK)
    return 0;
  /* a checking recording's walk is compared with the JVM's unwind of the snapshot, which has no rbx */
  struct walk_regs at = {ctx->rip, ctx->rsp, ctx->rbp, *rbx, mode != WALK_CHECK};
  uint64_t stop_sp = levels > 0 && level0->exit_frame > ctx->rsp && mode != WALK_CHECK
                         ? level0->exit_frame + EXIT_FRAME_CFA
                         : UINT64_MAX;
  struct walk_bounds b = {ctx->rsp, p->sig.stack_hi, stop_sp, OMPPROF_MAX_WALK_FRAMES};
  uint32_t n = frame_walk(cfi_tables_current(), &p->sig.memo, &at, &b, out, stop, NULL);
  int at_rule = (*stop & WALK_STOPPED_AT_RULE) != 0;
  *stop &= ~WALK_STOPPED_AT_RULE;
  if (mode == WALK_CHECK) {
    out[n++] = (struct ompprof_frame){at.pc, at.sp};
    *stop |= OMPPROF_WALK_CHECK;
    return n;
  }
  if (at_rule)
    return 0; /* the snapshot from the sampled registers, as without a walk */
  ctx->rip = at.pc;
  ctx->rsp = at.sp;
  ctx->rbp = at.bp;
  *rbx = at.bx;
  *rbx_known = at.bx_known;
  return n;
}

static int same_bytes(const uint8_t *a, const uint8_t *b, uint32_t n) /* signal-safe */
{
  uint64_t x, y;
  for (; n >= 8; n -= 8, a += 8, b += 8) {
    __builtin_memcpy(&x, a, 8);
    __builtin_memcpy(&y, b, 8);
    if (x != y)
      return 0;
  }
  for (; n; n--)
    if (*a++ != *b++)
      return 0;
  return 1;
}

/* Whether the sample `s` (its record `body` bytes after the header, no snapshot) is the handler's last one again, in
 * all but its time and weight, with nothing written to the ring since: a thread waiting in the runtime (idle, or at
 * a barrier) is sampled where it waits, the same levels and frames a thousand times a second. It then goes as a
 * repeat of that one (the sample struct alone); else it is kept for the next. */
static int sample_repeats(struct priv *p, struct ompprof_sample *s, uint32_t body) /* signal-safe */
{
  const uint32_t from = (uint32_t)offsetof(struct ompprof_sample, os_tid);
  const uint8_t *own = (const uint8_t *)s + from;
  uint32_t len = body - from;
  if (len == p->sig.last_len && record_count(&p->sig.sample) == p->sig.last_records &&
      same_bytes(own, p->sig.last, len)) {
    record_sample_as_repeat(s);
    return 1;
  }
  p->sig.last_len = len <= HANDLER_REPEAT_BYTES ? len : 0;
  if (p->sig.last_len)
    sig_copy(p->sig.last, own, len);
  return 0;
}

/* Where the walk stopped short, a second window of the stack from just below the lowest of rbx (when known) and rbp
 * that lies above the snapshot's end, within the thread's stack: code without unwind rows may keep its frame's
 * address there past a frame larger than the snapshot (OpenBLAS's Haswell dgemm kernel aligns rsp 29 KB below it),
 * and its callers' frames lie above. Up to stack_bytes, and not past the task's exit frame. Returns the bytes
 * written at `out` (the window's header and bytes), 0 when no register qualifies. */
static uint32_t upper_window(const struct priv *p, const struct ompprof_context *ctx, uint32_t n, uint64_t rbx,
                             int rbx_known, const struct ompprof_task_level *level0, uint32_t levels,
                             uint8_t *out) /* signal-safe */
{
  uint64_t end = ctx->rsp + n, hi = p->sig.stack_hi, at = 0;
  uint64_t candidates[2] = {rbx_known ? rbx : 0, ctx->rbp};
  for (int i = 0; i < 2; i++) {
    uint64_t c = candidates[i];
    int in_task = levels == 0 || level0->exit_frame == 0 || c < level0->exit_frame;
    if (c >= end && c < hi && c - ctx->rsp <= UPPER_REACH && in_task && (at == 0 || c < at))
      at = c;
  }
  if (at == 0)
    return 0;
  uint64_t from = (at - UPPER_BELOW) & ~(uint64_t)7;
  if (from < end)
    from = end;
  uint64_t len =
      up_to_exit(from, hi - from < ompprof_g.stack_bytes ? hi - from : ompprof_g.stack_bytes, level0, levels);
  struct ompprof_upper_window w = {from, (uint32_t)len, 0};
  sig_copy(out, &w, sizeof w);
  snapshot_copy(out + sizeof w, from, (uint32_t)len);
  return (uint32_t)(sizeof w + RING_ALIGN8(len));
}

static void take_sample(struct priv *p, const siginfo_t *si, const ucontext_t *uc) /* signal-safe */
{
  struct agent *g = &ompprof_g;
  /* A thread between its mutex_acquire and mutex_acquired callbacks waits
   * for that mutex: mark it before taking the sample's time, so that whoever
   * holds it at that time sees the mark when it releases (callbacks.c). */
  uint64_t waiting_for = p->sig.acq_id, t0;
  if (waiting_for) {
    if (!mutex_mark_now(waiting_for, &t0))
      bump64(&p->slot->mutex_table_full, 1);
    if (!p->sig.acq_first_ns)
      p->sig.acq_first_ns = t0;
    bump64(&p->slot->mutex_marked, 1);
  } else {
    t0 = now_ns();
  }
  for (uint32_t i = 0; i < p->sig.held_n && i < HELD_MAX; i++)
    if (!p->sig.held[i].first_own_ns)
      p->sig.held[i].first_own_ns = t0;
  struct ompprof_context ctx;
  ctx.rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
  ctx.rsp = (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
  ctx.rbp = (uint64_t)uc->uc_mcontext.gregs[REG_RBP];
  ctx.stack_len = 0;
  ctx.ctx_flags = 0;
  ctx.frame_count = 0;
  ctx.walk_stop = 0;
  struct ring_res res;
  if (record_reserve(&p->sig.sample, OMPPROF_REC_SAMPLE, SAMPLE_FIXED + 2 * (uint32_t)RING_ALIGN8(g->stack_bytes),
                     p->thread_seq, &res)) {
    struct ompprof_record_header *h = (struct ompprof_record_header *)(void *)res.rec;
    struct ompprof_sample *s = (struct ompprof_sample *)(void *)(h + 1);
    /* si_overrun is only meaningful for POSIX timer signals; an external
     * kill(SIGPROF) stands for one period. A perf event's sample stands for
     * the CPU time its count grew by since the thread's previous one. */
    uint64_t overrun = si && si->si_code == SI_TIMER && si->si_overrun > 0 ? (uint64_t)si->si_overrun : 0;
    int perf = timer_is_perf_signal(p, si);
    /* in wall mode a sample stands for the wall time since the thread's previous one: up to now for its cpu-clock
     * event's, up to the tick that found it here for the sampler's */
    int cpu = wall_is_cpu_signal(p, si), wall = cpu || wall_is_signal(si);
    if (cpu)
      __atomic_store_n(&p->wall.cpu_sampled_ns, t0, __ATOMIC_RELEASE);
    uint64_t counted = perf   ? timer_perf_elapsed(p)
                       : cpu  ? wall_sample_weight(p, t0)
                       : wall ? wall_signal_weight(p)
                              : 0;
    s->time_ns = t0;
    s->weight_ns = counted || wall ? counted : g->period_ns * (1 + overrun);
    s->os_tid = p->os_tid;
    s->flags = (p->sig.unknown_thread ? OMPPROF_SAMPLE_UNKNOWN_THREAD : 0) | (perf ? OMPPROF_SAMPLE_PERF : 0);
    s->wait_id = 0;
    uint32_t levels_bytes = 0;
    if (__atomic_load_n(&g->ompt_ready, __ATOMIC_ACQUIRE)) {
      ompt_wait_id_t wait_id = 0;
      s->state = (uint32_t)g->get_state(&wait_id);
      s->wait_id = wait_id;
      s->flags |= OMPPROF_SAMPLE_OMPT_READY;
      levels_bytes = handler_fill_levels(p, s, (uint8_t *)(s + 1));
    } else {
      /* before the runtime's tool initialize: at the program's start (the agent preloaded), its initial thread runs
       * serial code, as OMPT would say */
      s->state = g->started_early ? ompt_state_work_serial : ompt_state_undefined;
      s->omp_thread_num = -1;
      s->task_levels = s->parallel_levels = 0;
    }
    const struct ompprof_task_level *level0 = (const struct ompprof_task_level *)(const void *)(s + 1);
    struct ompprof_frame *frames = (struct ompprof_frame *)(void *)((uint8_t *)(s + 1) + levels_bytes);
    uint64_t rbx = (uint64_t)uc->uc_mcontext.gregs[REG_RBX];
    int rbx_known;
    uint32_t nf = walk_frames(p, &ctx, &rbx, &rbx_known, level0, s->task_levels, frames, &ctx.walk_stop);
    ctx.frame_count = nf;
    /* a slot claimed in here has no bounds yet: snapshot_len says NO_BOUNDS */
    uint32_t n = 0;
    uint8_t *snapshot = (uint8_t *)(frames + nf);
    if ((ctx.walk_stop & 0xffu) == OMPPROF_WALK_CONTINUE || (ctx.walk_stop & OMPPROF_WALK_CHECK)) {
      n = snapshot_len(&ctx, p->sig.stack_lo, p->sig.stack_hi, g->stack_bytes);
      ctx.stack_len = n;
      if (!(ctx.walk_stop & OMPPROF_WALK_CHECK))
        n = trim_to_task(&ctx, level0, s->task_levels, n);
      if (rbx_known && n > 0) {
        _Static_assert(sizeof rbx == OMPPROF_RBX_BYTES, "rbx on the wire");
        __builtin_memcpy(snapshot, &rbx, sizeof rbx);
        snapshot += OMPPROF_RBX_BYTES;
        s->flags |= OMPPROF_SAMPLE_RBX;
      }
    }
    s->ctx = ctx;
    snapshot_copy(snapshot, ctx.rsp, n);
    uint32_t upper = 0;
    if (n > 0 && g->walk == WALK_ON && (ctx.walk_stop & 0xffu) == OMPPROF_WALK_CONTINUE) {
      upper = upper_window(p, &ctx, n, rbx, rbx_known, level0, s->task_levels, snapshot + RING_ALIGN8(n));
      if (upper)
        s->flags |= OMPPROF_SAMPLE_UPPER;
    }
    if (p->sig.has_timer == TIMER_WALL && (s->flags & OMPPROF_SAMPLE_OMPT_READY))
      wall_view_store(p, s, (const uint8_t *)(s + 1));
    uint32_t bytes = (uint32_t)(snapshot - res.rec + RING_ALIGN8(n) + upper);
    if (n == 0 && sample_repeats(p, s, bytes - (uint32_t)sizeof *h))
      bytes = (uint32_t)(sizeof *h + sizeof *s);
    record_commit(&p->sig.sample, &res, bytes);
    p->sig.last_records = record_count(&p->sig.sample);
    bump64(&p->slot->sample_bytes, bytes);
    if (perf)
      timer_watch_switches(p, counted); /* after the sample: it may close the event */
  }

  uint64_t dt = now_ns() - t0;
  struct ompprof_slot_header *sh = p->slot;
  bump64(&sh->handler_calls, 1);
  bump64(&sh->handler_ns, dt);
  uint32_t *b = &sh->hist[hist_bucket(dt)];
  __atomic_store_n(b, __atomic_load_n(b, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* The thread's slot, or NULL when this signal must not be sampled. A thread
 * never seen by a callback gets a slot here (external SIGPROFs only: our
 * timers are created in thread_begin, after the slot exists). */
static struct priv *handler_priv(void) /* signal-safe */
{
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (PRIV_VALID(p))
    return p;
  if (p != NULL || (__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) & GATE_DISABLED)) {
    count_disabled();
    return NULL;
  }
  struct priv *cur = NULL;
  if (!__atomic_compare_exchange_n(&ompprof_tls, &cur, PRIV_CLAIMING, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return NULL;
  p = slot_claim();
  if (p)
    p->sig.unknown_thread = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&ompprof_tls, p, __ATOMIC_RELAXED);
  return p;
}

/* The thread's sample ring for the handler, or 0 when the handler is already
 * in it. The wall sampler holds it for microseconds while it looks at the
 * thread: waited for, within bounds (it may have been preempted). */
static int take_ring(struct priv *p) /* signal-safe */
{
  uint64_t deadline = 0;
  for (;;) {
    uint8_t idle = RING_FREE;
    if (__atomic_compare_exchange_n(&p->sig.in_handler, &idle, RING_HANDLER, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return 1;
    if (idle != RING_WALL)
      return 0;
    uint64_t t = now_ns();
    if (!deadline)
      deadline = t + 200000u;
    else if (t > deadline)
      return 0;
    __builtin_ia32_pause();
  }
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv) /* signal-safe */
{
  (void)sig;
  int saved_errno = errno;
  if (!agent_attached())
    goto out;
  struct priv *p = handler_priv();
  if (timer_is_retired_signal(p, si))
    goto out; /* the CPU time it stood for is in the sample that moved the thread */
  /* our timers' signals carry SI_TIMER, our perf events' POLL_IN and their
   * descriptor; anything else is the program's (setitimer, kill) */
  int wall = wall_is_signal(si), cpu = wall_is_cpu_signal(p, si);
  if (!si || (si->si_code != SI_TIMER && !timer_is_perf_signal(p, si) && !wall && !cpu))
    __atomic_add_fetch(&ompprof_g.hdr->foreign_signals, 1, __ATOMIC_RELAXED);
  if (wall || cpu)
    wall_undo_interrupt((ucontext_t *)ucv, cpu);
  if (!p)
    goto out;
  /* A CAS, not a store: the wall sampler takes the ring the same way while
   * the thread blocks. Sequentially consistent, for the Dekker pairing with
   * handler_quiesce: either finalize sees in_handler set and waits for us, or
   * we see its gate and write nothing. */
  /* A cpu-clock signal pending when the sampler sent its own took that one's place (SIGPROF does
   * not queue): its sample serves the sampler too, which may send again. */
  if (!take_ring(p)) {
    bump64(&p->slot->reentered, 1);
    if (wall || cpu)
      wall_signal_done(p);
    goto out;
  }
  if (__atomic_load_n(&ompprof_g.gate, __ATOMIC_RELAXED) || p->sig.end_deferred)
    count_disabled();
  else
    take_sample(p, si, (const ucontext_t *)ucv);
  __atomic_store_n(&p->sig.in_handler, RING_FREE, __ATOMIC_RELEASE);
  if (wall || cpu)
    wall_signal_done(p);
out:
  errno = saved_errno;
}

/* Whether `sa` is a handler of the program's (not the default, not ignored, not ours). */
static int programs_handler(const struct sigaction *sa)
{
  if (sa->sa_flags & SA_SIGINFO)
    return sa->sa_sigaction != on_sigprof;
  return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

/* The disposition the agent's handler replaced, which the program would see without the agent; and whether the
 * agent's handler is still the signal's (until the program takes the signal: handler_surrender). */
static struct sigaction program_action;
static int holds_signal;
static pthread_mutex_t surrender_lock = PTHREAD_MUTEX_INITIALIZER;

/* 0 installed; 1 the program has its own handler for the signal, left in place; -1 error. */
int handler_install(void)
{
  struct sigaction old;
  if (sigaction(ompprof_g.signo, NULL, &old) != 0)
    return -1;
  if (programs_handler(&old))
    return 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(ompprof_g.signo, &sa, NULL) != 0)
    return -1;
  program_action = old;
  __atomic_store_n(&holds_signal, 1, __ATOMIC_RELEASE);
  return 0;
}

int handler_holds_signal(void)
{
  return __atomic_load_n(&holds_signal, __ATOMIC_ACQUIRE);
}

const struct sigaction *handler_program_action(void)
{
  return &program_action;
}

int handler_surrender(void)
{
  struct agent *g = &ompprof_g;
  /* once given up, no lock: a program's handler that sets itself again (signal() in it, the System V way) calls here
   * from a signal handler */
  if (!handler_holds_signal())
    return 0;
  pthread_mutex_lock(&surrender_lock);
  int surrendered = handler_holds_signal();
  if (surrendered) {
    /* no timer armed from now on (timer_arm checks again once armed), no sample taken by a signal already sent */
    __atomic_store_n(&g->sampling_off, 1, __ATOMIC_SEQ_CST);
    __atomic_or_fetch(&g->gate, GATE_SIGNAL_TAKEN, __ATOMIC_SEQ_CST);
    wall_stop();
    handler_quiesce();
    timers_stop_all();
    __atomic_or_fetch(&g->hdr->signal_problems, OMPPROF_SIGNAL_REPLACED, __ATOMIC_RELAXED);
    __atomic_store_n(&holds_signal, 0, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&surrender_lock);
  return surrendered;
}

void signal_check(void)
{
  struct agent *g = &ompprof_g;
  if (!agent_attached() || __atomic_load_n(&g->sampling_off, __ATOMIC_ACQUIRE))
    return;
  struct sigaction cur;
  if (sigaction(g->signo, NULL, &cur) == 0 && !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigprof))
    __atomic_or_fetch(&g->hdr->signal_problems, OMPPROF_SIGNAL_REPLACED, __ATOMIC_RELAXED);
  sigset_t mask;
  if (pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0 && sigismember(&mask, g->signo) == 1)
    __atomic_or_fetch(&g->hdr->signal_problems, OMPPROF_SIGNAL_BLOCKED, __ATOMIC_RELAXED);
}

void handler_quiesce(void)
{
  struct agent *g = &ompprof_g;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  /* A handler that got past the gate finishes within microseconds; the
   * deadline only protects against a thread stopped inside it. */
  uint64_t deadline = now_ns() + 20u * 1000000u;
  for (uint32_t i = 0; i < g->slot_count; i++) {
    while (__atomic_load_n(&g->privs[i].sig.in_handler, __ATOMIC_ACQUIRE) && now_ns() < deadline) {
      struct timespec ts = {0, 10000};
      nanosleep(&ts, NULL);
    }
  }
}
