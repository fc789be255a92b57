/*
 * Bodies the program's own code calls, not the runtime. Two constructs
 * compile so, and libomp reports their exit frames from frames that do not
 * hold them:
 *  - An undeferred task (a false if clause): its exit frame, and its
 *    creator's enter frame, are __builtin_frame_address(1) of
 *    __kmpc_omp_task_begin_if0, the rbp of the creating code. That is the
 *    creating function's frame address only where it keeps a frame pointer;
 *    clang -O1 and up leave anything in rbp (a loop counter, a pointer), and
 *    every sample in the task's body then seemed to lie outside the task
 *    (EPCC taskbench's conditional tasks, a recursion cut off with if():
 *    `<omp runtime>`, `<truncated>` when they nest).
 *  - A serialized region (clang calls __kmpc_serialized_parallel, then the
 *    outlined body itself): its implicit task's exit frame is the frame of
 *    libomp's __kmp_serialized_parallel, returned from before the body runs,
 *    so every sample in the body seemed to lie outside its task, with or
 *    without frame pointers.
 * Either body is called from the frame that called the runtime, so the
 * address the runtime means is that frame's CFA - 16. It is found from the
 * runtime's own frames, which keep frame pointers: the one whose return
 * address is the construct's codeptr_ra, and one unwind step from there.
 */
#include "direct_bodies.h"

#include "agent_state.h"

/* How far above the callback's frame the runtime's may lie: the callback and libomp's begin_if0 frames between. */
#define SEARCH_BYTES 4096u
/* A site whose runtime frame holds no such pair: begin_if0 called by the runtime itself (GOMP_task, for gcc's code,
 * which calls the body itself too, so that libomp's value is its own frame's and right). */
#define NO_PAIR UINT32_MAX
/* Frames from the runtime's that reported a serialized region's exit frame to the program's, that one included. */
#define SERIALIZED_HOPS 4u

/* Whether [addr, addr + 16) lies in the thread's stack. */
static int on_stack(const struct priv *p, uint64_t addr)
{
  return p->sig.stack_hi != 0 && addr >= p->sig.stack_lo && addr < p->sig.stack_hi - 16;
}

/* The current task's frame, if the current task is `task`. */
static ompt_frame_t *current_frame(const ompt_data_t *task)
{
  ompt_frame_t *frame = NULL;
  ompt_data_t *current = NULL;
  if (!ompprof_g.get_task_info || ompprof_g.get_task_info(0, NULL, &current, &frame, NULL, NULL) == 0 ||
      current != task)
    return NULL;
  return frame;
}

/* The CFA of the program's frame that called the runtime function whose frame pointer is `saved` (its rbp saved
 * there, the return address `codeptr` above): one unwind step from the call; 0 if the rows do not say. */
static uint64_t caller_cfa(struct priv *p, uint64_t saved, uint64_t codeptr)
{
  const struct cfi_tables *tables = cfi_tables_current();
  if (!tables)
    return 0;
  /* the call instruction's row: the return address may begin another */
  struct walk_regs at = {codeptr - 1, saved + 16, load64(saved), 0, 0};
  struct walk_bounds b = {at.sp, p->sig.stack_hi, UINT64_MAX, 1};
  struct ompprof_frame f;
  uint32_t stop = 0;
  if (frame_walk(tables, &p->cb.memo, &at, &b, &f, &stop, NULL) != 1 || (stop & WALK_STOPPED_AT_RULE) ||
      at.sp <= saved + 16)
    return 0;
  return at.sp;
}

/* Whether the runtime's frame at `saved` holds the creating code's rbp and its return address. */
static int saved_pair(uint64_t saved, uint64_t rbp, uint64_t codeptr)
{
  return load64(saved) == rbp && load64(saved + 8) == codeptr;
}

static struct undeferred_site *site_of(struct priv *p, uint64_t codeptr)
{
  for (uint32_t i = 0; i < UNDEFERRED_SITES; i++)
    if (p->cb.undeferred[i].codeptr == codeptr)
      return &p->cb.undeferred[i];
  return NULL;
}

/* A site met for the first time, or by another path (into `s`, else a new place): the saved pair searched for from
 * the callback's sp, the creating frame unwound one step. */
static struct undeferred_site *site_learn(struct priv *p, struct undeferred_site *s, uint64_t sp, uint64_t rbp,
                                          uint64_t codeptr)
{
  if (!on_stack(p, sp))
    return NULL;
  uint64_t end = p->sig.stack_hi - sp > SEARCH_BYTES ? sp + SEARCH_BYTES : p->sig.stack_hi;
  uint64_t saved = sp;
  while (saved + 16 <= end && !saved_pair(saved, rbp, codeptr))
    saved += 8;
  uint64_t cfa = saved + 16 <= end ? caller_cfa(p, saved, codeptr) : 0;
  if (!s)
    s = &p->cb.undeferred[p->cb.undeferred_next++ % UNDEFERRED_SITES];
  if (!cfa || cfa - (saved + 16) > UINT32_MAX) {
    *s = (struct undeferred_site){codeptr, NO_PAIR, 0}; /* not searched again */
    return NULL;
  }
  *s = (struct undeferred_site){codeptr, (uint32_t)(saved - sp), (uint32_t)(cfa - (saved + 16))};
  return s;
}

void direct_bodies_undeferred(struct priv *p, uint64_t sp, const ompt_frame_t *parent, const ompt_data_t *task,
                              uint64_t codeptr)
{
  ompt_frame_t *frame = current_frame(task);
  if (!frame)
    return;
  uint64_t rbp = (uint64_t)(uintptr_t)frame->exit_frame.ptr;
  struct undeferred_site *s = site_of(p, codeptr);
  if (s && s->saved_off == NO_PAIR)
    return;
  if (!s || !saved_pair(sp + s->saved_off, rbp, codeptr))
    s = site_learn(p, s, sp, rbp, codeptr);
  if (!s)
    return;
  uint64_t meant = sp + s->saved_off + 16 + s->frame_size - EXIT_FRAME_CFA;
  if (meant == rbp)
    return; /* the creating code keeps a frame pointer: libomp's value is right */
  frame->exit_frame.ptr = (void *)(uintptr_t)meant;
  /* the creator's enter frame, set to the same value when begin_if0 found it unset; libomp clears it at the end */
  ompt_frame_t *creator = (ompt_frame_t *)(uintptr_t)parent;
  if (creator && creator->enter_frame.ptr == (void *)(uintptr_t)rbp)
    creator->enter_frame.ptr = (void *)(uintptr_t)meant;
}

/* The exit frame a serialized region's body has: unwound from the runtime's frame that reported it (a frame pointer:
 * its caller's rbp, then its return address) to the program's frame the call returns to (at codeptr); 0 if not
 * found within SERIALIZED_HOPS frames. */
static uint64_t serialized_exit(struct priv *p, uint64_t reported, uint64_t codeptr)
{
  const struct cfi_tables *tables = cfi_tables_current();
  if (!tables || !on_stack(p, reported))
    return 0;
  struct walk_regs at = {load64(reported + 8) - 1, reported + 16, load64(reported), 0, 0};
  struct walk_bounds b = {at.sp, p->sig.stack_hi, UINT64_MAX, SERIALIZED_HOPS};
  struct ompprof_frame f[SERIALIZED_HOPS];
  uint32_t stop = 0, n = frame_walk(tables, &p->cb.memo, &at, &b, f, &stop, NULL);
  for (uint32_t i = 1; i < n; i++)
    if (f[i].pc == codeptr)
      return (i + 1 < n ? f[i + 1].sp : at.sp) - EXIT_FRAME_CFA;
  return 0;
}

void direct_bodies_region_begin(struct priv *p, uint64_t region, const ompt_frame_t *encountering, unsigned requested,
                                int flags, uint64_t codeptr)
{
  struct serialized_exits *s = &p->sig.serialized;
  s->pending_region = 0;
  if (!(flags & ompt_parallel_invoker_program) || requested != 1 || !encountering || !codeptr)
    return;
  uint64_t reported = (uint64_t)(uintptr_t)encountering->enter_frame.ptr;
  uint64_t meant = serialized_exit(p, reported, codeptr);
  if (!meant || meant == reported)
    return;
  s->pending_reported = reported;
  s->pending_meant = meant;
  s->pending_region = region;
}

void direct_bodies_implicit_begin(struct priv *p, uint64_t region, const ompt_data_t *task)
{
  struct serialized_exits *s = &p->sig.serialized;
  if (region == 0 || s->pending_region != region)
    return;
  s->pending_region = 0;
  ompt_frame_t *frame = current_frame(task);
  uint32_t n = s->n;
  if (!frame || n == SERIALIZED_OPEN)
    return;
  s->region[n] = region;
  s->frame[n] = (uint64_t)(uintptr_t)frame;
  s->reported[n] = s->pending_reported;
  s->meant[n] = s->pending_meant;
  __atomic_store_n(&s->n, n + 1, __ATOMIC_RELEASE);
}

void direct_bodies_region_end(struct priv *p, uint64_t region)
{
  struct serialized_exits *s = &p->sig.serialized;
  uint32_t n = s->n;
  if (n > 0 && s->region[n - 1] == region)
    __atomic_store_n(&s->n, n - 1, __ATOMIC_RELEASE);
}
