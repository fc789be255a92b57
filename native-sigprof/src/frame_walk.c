/*
 * The frame walk (frame_walk.h). Every rule that could disagree with the
 * JVM's DWARF unwinder stops the walk instead (OMPPROF_WALK_CONTINUE): the
 * JVM then unwinds on from the stop with a stack slice, so the frames are the
 * same as a full stack copy would have given, only cheaper.
 */
#include "frame_walk.h"

/* Adds a read to the log; returns its index (WALK_LOG_READS when it did not fit). */
static uint32_t log_read(struct walk_log *log, uint64_t addr, uint64_t val) /* signal-safe */
{
  if (!log)
    return WALK_LOG_READS;
  uint32_t i = log->n++;
  if (i < WALK_LOG_READS) {
    log->addr[i] = addr;
    log->val[i] = val;
  }
  if (addr + 8 > log->max_end)
    log->max_end = addr + 8;
  return i;
}

/* Where the rbp a CFA may be computed from came from. */
enum bp_origin { BP_ENTRY, BP_SAVED, BP_LOGGED };

/* A CFA computed from rbp: the rbp's origin joins the log (a saved one only now that it matters). */
static void log_bp_used(struct walk_log *log, enum bp_origin *origin, uint64_t bp_addr, uint64_t bp) /* signal-safe */
{
  if (!log)
    return;
  if (*origin == BP_ENTRY)
    log->entry_bp_used = 1;
  else if (*origin == BP_SAVED) {
    uint32_t i = log_read(log, bp_addr, bp);
    if (i < WALK_LOG_READS)
      log->frame_ptrs |= 1u << i;
  }
  *origin = BP_LOGGED;
}

/* The CFA of the frame at `at` by `row`, 0 when it cannot be had. */
static uint64_t cfa_of(const struct cfi_row *row, const struct walk_regs *at) /* signal-safe */
{
  switch (row->rule) {
  case CFI_RSP:
    return at->sp + (uint64_t)(int64_t)row->cfa_off;
  case CFI_RBP:
    return at->bp + (uint64_t)(int64_t)row->cfa_off;
  case CFI_PLT:
    return at->sp + 8 + ((at->pc & 15) >= (uint64_t)row->cfa_off ? 8 : 0);
  case CFI_RBX:
    return at->bx + (uint64_t)(int64_t)row->cfa_off;
  default:
    return 0;
  }
}

uint32_t frame_walk(const struct cfi_tables *t, struct cfi_memo *memo, struct walk_regs *at,
                    const struct walk_bounds *b, struct ompprof_frame *out, uint32_t *stop,
                    struct walk_log *log) /* signal-safe */
{
  uint32_t n = 0;
  *stop = OMPPROF_WALK_CONTINUE;
  if (!t || at->sp < b->lo || at->sp >= b->hi)
    return 0;
  /* recursion returns to the same address frame after frame: its row is looked up once */
  uint64_t last_lookup = 0, bias, bp_addr = 0;
  enum bp_origin bp_origin = BP_ENTRY;
  /* where the caller's rbx was saved (0: at->bx holds it): read only when a CFA needs it, which
   * only the loader's resolver does, so that a deep walk does not pay a load a frame for it */
  uint64_t bx_slot = 0;
  const struct cfi_row *row = NULL;
  for (int return_address = 0; n < b->max; return_address = 1) {
    /* a return address may be the last byte of its function (a call to a noreturn function) */
    uint64_t lookup = at->pc - (uint64_t)return_address;
    if (!row || lookup != last_lookup)
      row = cfi_find_memo(t, lookup, &bias, memo);
    last_lookup = lookup;
    if (!row)
      return n;
    if (row->rule == CFI_UNSUPPORTED || (row->rule == CFI_RBX && !at->bx_known)) {
      *stop |= WALK_STOPPED_AT_RULE;
      return n;
    }
    if (row->rule == CFI_OUTERMOST) {
      *stop = OMPPROF_WALK_COMPLETE;
      return n;
    }
    if (row->rule == CFI_RBP)
      log_bp_used(log, &bp_origin, bp_addr, at->bp);
    if (row->rule == CFI_RBX) {
      if (bx_slot) {
        if (bx_slot < b->lo || bx_slot > b->hi - 8) {
          *stop |= WALK_STOPPED_AT_RULE;
          return n;
        }
        at->bx = load64(bx_slot);
        bx_slot = 0;
      }
      if (log && log->n <= WALK_LOG_READS)
        log->n = WALK_LOG_READS + 1; /* not tracked for replay: the loader's resolver, seldom met */
    }
    uint64_t cfa = cfa_of(row, at);
    /* the return address at cfa - 8 and a saved rbp must lie in [lo, hi); the stack grows down */
    if (cfa <= at->sp)
      return n;
    if (cfa > b->stop_sp) { /* checked first, as the JVM's unwinder of a snapshot cut there would */
      *stop = OMPPROF_WALK_TASK_EXIT;
      return n;
    }
    if (cfa > b->hi || cfa - 8 < b->lo)
      return n;
    uint64_t bp = at->bp;
    if (row->rbp_off) {
      uint64_t slot = cfa + (uint64_t)(int64_t)row->rbp_off;
      if (slot < b->lo || slot > b->hi - 8)
        return n;
      bp = load64(slot);
      bp_addr = slot;
      bp_origin = BP_SAVED;
      if (log && slot + 8 > log->max_end)
        log->max_end = slot + 8;
    }
    int bx_known = at->bx_known && row->rbx_off8 != CFI_RBX_LOST;
    if (bx_known && row->rbx_off8) {
      uint64_t saved_at = cfa + (uint64_t)(int64_t)row->rbx_off8 * 8;
      if (saved_at >= at->sp) /* below sp: popped already, rbx holds it again */
        bx_slot = saved_at;
    }
    uint64_t pc = load64(cfa - 8);
    log_read(log, cfa - 8, pc);
    if (pc == 0) {
      *stop = OMPPROF_WALK_COMPLETE;
      return n;
    }
    out[n++] = (struct ompprof_frame){at->pc, at->sp};
    *at = (struct walk_regs){pc, cfa, bp, at->bx, bx_known};
  }
  return n;
}
