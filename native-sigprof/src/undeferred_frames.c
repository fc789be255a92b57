/*
 * libomp reports an undeferred task's exit frame, and its creator's enter
 * frame, as __builtin_frame_address(1) of __kmpc_omp_task_begin_if0: the rbp
 * of the code that called it. That is the creating function's frame address
 * only where the function keeps a frame pointer; clang -O1 and up leave
 * anything in rbp (a loop counter, a pointer), and every sample in the task's
 * body then seemed to lie outside the task (EPCC taskbench's conditional
 * tasks, a recursion cut off with if(): `<omp runtime>` and `<truncated>`
 * where the body's frames belonged).
 *
 * The creating function calls the task's body from the frame it called
 * begin_if0 from, so the address libomp means is that frame's CFA - 16. It is
 * found from the runtime's own frame: begin_if0 saved the creating code's rbp
 * (the reported value) next to its return address (the callback's codeptr_ra),
 * and one unwind step from that return address gives the creating frame's CFA.
 * Each call site's offsets are kept: a creation of a known site costs a
 * look-up, two loads and two stores. A runtime that called begin_if0 itself
 * (GOMP_task, for gcc's code) has no such pair: its frames are left alone.
 */
#include "undeferred_frames.h"

#include "agent_state.h"

/* How far above the callback's frame the runtime's may lie: the callback and libomp's begin_if0 frames between. */
#define SEARCH_BYTES 4096u

static uint64_t word(uint64_t addr)
{
  uint64_t v;
  __builtin_memcpy(&v, (const void *)(uintptr_t)addr, sizeof v);
  return v;
}

/* Whether the runtime's frame at `saved` holds the creating code's rbp and its return address. */
static int saved_pair(uint64_t saved, uint64_t rbp, uint64_t codeptr)
{
  return word(saved) == rbp && word(saved + 8) == codeptr;
}

static struct undeferred_site *site_of(struct priv *p, uint64_t codeptr)
{
  for (uint32_t i = 0; i < UNDEFERRED_SITES; i++)
    if (p->cb.undeferred[i].codeptr == codeptr)
      return &p->cb.undeferred[i];
  return NULL;
}

/* A site met for the first time, or by another path (into `s`, else a new place): the saved pair searched for, the
 * creating frame unwound one step. */
static struct undeferred_site *site_learn(struct priv *p, struct undeferred_site *s, uint64_t sp, uint64_t rbp,
                                          uint64_t codeptr)
{
  uint64_t hi = p->sig.stack_hi;
  if (hi == 0 || sp < p->sig.stack_lo || sp >= hi)
    return NULL;
  uint64_t end = hi - sp > SEARCH_BYTES ? sp + SEARCH_BYTES : hi;
  uint64_t saved = sp;
  while (saved + 16 <= end && !saved_pair(saved, rbp, codeptr))
    saved += 8;
  const struct cfi_tables *tables = cfi_tables_current();
  if (saved + 16 > end || !tables)
    return NULL;
  /* the call instruction's row: the return address may begin another */
  struct walk_regs at = {codeptr - 1, saved + 16, rbp, 0, 0};
  struct walk_bounds b = {at.sp, hi, UINT64_MAX, 1};
  struct ompprof_frame f;
  uint32_t stop = 0;
  if (frame_walk(tables, &p->cb.memo, &at, &b, &f, &stop, NULL) != 1 || (stop & WALK_STOPPED_AT_RULE) ||
      at.sp <= saved + 16 || at.sp - (saved + 16) > UINT32_MAX)
    return NULL;
  if (!s)
    s = &p->cb.undeferred[p->cb.undeferred_next++ % UNDEFERRED_SITES];
  *s = (struct undeferred_site){codeptr, (uint32_t)(saved - sp), (uint32_t)(at.sp - (saved + 16))};
  return s;
}

void undeferred_frames_fix(struct priv *p, uint64_t sp, const ompt_frame_t *parent, const ompt_data_t *task,
                           uint64_t codeptr)
{
  int flags = 0, num = -1;
  ompt_frame_t *frame = NULL;
  ompt_data_t *current = NULL, *par = NULL;
  if (!ompprof_g.get_task_info || ompprof_g.get_task_info(0, &flags, &current, &frame, &par, &num) == 0 ||
      current != task || !frame)
    return;
  uint64_t rbp = (uint64_t)(uintptr_t)frame->exit_frame.ptr;
  struct undeferred_site *s = site_of(p, codeptr);
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
