/*
 * The handler's frame walk: from the sampled registers, frame by frame with
 * the compact unwind rows (cfi_table.h), reading only the thread's own stack.
 */
#ifndef OMPPROF_FRAME_WALK_H
#define OMPPROF_FRAME_WALK_H

#include <stdint.h>

#include "cfi_table.h"
#include "ompprof_wire.h"

/* libomp's OMPT frame addresses are __builtin_frame_address(0): the frame's CFA - 16. */
#define EXIT_FRAME_CFA 16u

/* A word of the thread's stack (the walk's reads, and those of the agent's other walkers over the same stack). */
static inline uint64_t load64(uint64_t addr) /* signal-safe */
{
  return __atomic_load_n((const uint64_t *)(uintptr_t)addr, __ATOMIC_RELAXED);
}

/* bx is rbx, which a CFI_RBX frame's CFA is computed from (the walk brings it up to date only for
 * such a frame); bx_known is 0 where it is not had (a callback's own registers, a slot a row could
 * not say). */
struct walk_regs {
  uint64_t pc, sp, bp;
  uint64_t bx;
  int bx_known;
};

/* Where the walk may read and when it stops. */
struct walk_bounds {
  uint64_t lo, hi;  /* readable stack: [sampled rsp, the thread's stack top) */
  uint64_t stop_sp; /* a frame whose sp would exceed this is not walked into (the task's exit) */
  uint32_t max;     /* frames to write at most */
};

/* Set in *stop (never written to a record) when the walk stopped at a rule it does
 * not apply (a CFA in another register, an expression, a signal frame, a CFA in rbx
 * where rbx is not known): the JVM's unwinder could apply it, but may need registers
 * that frames further in saved and the walk did not track, so callers send the stack
 * from the sampled registers instead of from the stop. */
#define WALK_STOPPED_AT_RULE 0x10000u

/* What a walk read that decided its course: every return address, and the
 * saved rbp values a later frame's CFA was computed from (a saved rbp that no
 * rule uses is left out: it varies from call to call without changing the
 * walk). Another walk from the same pc with the same registers relative to
 * sp, over a stack holding the same words at the same offsets from sp (the
 * frame pointers among them relative to sp too: a recursion's frames sit
 * deeper each time), takes the same course: a caller can replay a walk by
 * checking these words. A walk whose course an rbx decided is not replayed
 * (n is set past WALK_LOG_READS). */
#define WALK_LOG_READS 16u
struct walk_log {
  uint32_t n;          /* reads that mattered; more than WALK_LOG_READS: too many to replay */
  int entry_bp_used;   /* the rbp the walk started with decided a CFA */
  uint32_t frame_ptrs; /* bit i: read i is a saved rbp a CFA came from (a stack address) */
  uint64_t max_end;    /* the end of the highest word read */
  uint64_t addr[WALK_LOG_READS], val[WALK_LOG_READS];
};

/* Walks from `at` (which it leaves at the frame where the walk stopped), writing
 * the frames passed to `out`; returns their number and sets `*stop` to an
 * enum ompprof_walk_stop, with WALK_STOPPED_AT_RULE where that applies. */
/* Walks from `at`, leaving in it the frame where the walk stopped; `memo`
 * (may be NULL) remembers row look-ups, `log` (may be NULL) what was read. */
uint32_t frame_walk(const struct cfi_tables *t, struct cfi_memo *memo, struct walk_regs *at,
                    const struct walk_bounds *b, struct ompprof_frame *out, uint32_t *stop,
                    struct walk_log *log); /* signal-safe */

#endif
