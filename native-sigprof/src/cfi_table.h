/*
 * Compact unwind rows for the SIGPROF handler's frame walk, derived from the
 * loaded objects' .eh_frame CFI (found through PT_GNU_EH_FRAME). Built outside
 * the handler (modules_rescan), published as one immutable snapshot behind an
 * atomic pointer: the handler sees either the old set or the new one, never a
 * half-built table.
 */
#ifndef OMPPROF_CFI_TABLE_H
#define OMPPROF_CFI_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* How a row finds the CFA (and whether the walk can go on from it). */
enum cfi_rule {
  CFI_NONE = 0,        /* no FDE covers the pc (a gap between functions) */
  CFI_RSP = 1,         /* CFA = rsp + cfa_off */
  CFI_RBP = 2,         /* CFA = rbp + cfa_off */
  CFI_PLT = 3,         /* lazy PLT: CFA = rsp + 8 + ((pc & 15) >= cfa_off ? 8 : 0) */
  CFI_OUTERMOST = 4,   /* the return address is undefined: the outermost frame */
  CFI_UNSUPPORTED = 5, /* anything else (expressions, a CFA in another register, signal frames):
                          the JVM's unwinder takes over from here */
  CFI_RBX = 6,         /* CFA = rbx + cfa_off (the loader's _dl_runtime_resolve, which realigns rsp) */
};

/* cfi_row.rbx_off8 when rbx cannot be had in the caller (a register or expression rule, or a slot
 * out of the row's reach): a CFI_RBX frame further out then stops the walk. */
#define CFI_RBX_LOST INT8_MIN

/* From `pc` (relative to the module's load bias) up to the next row's pc. The
 * return address is always at CFA - 8; rbp is restored from CFA + rbp_off
 * when rbp_off is non-zero and left as it is otherwise; rbx likewise from
 * CFA + 8 * rbx_off8 (or lost, CFI_RBX_LOST). */
struct cfi_row {
  uint32_t pc;
  int32_t cfa_off;
  int16_t rbp_off;
  uint8_t rule; /* enum cfi_rule */
  int8_t rbx_off8;
};

/* One module's rows, sorted by pc; shared by every load of the same file. */
struct cfi_rows {
  uint32_t n;
  struct cfi_row row[];
};

struct cfi_module {
  uint64_t lo, hi; /* runtime addresses the rows cover */
  uint64_t bias;
  const struct cfi_rows *rows;
};

/* The loaded modules' rows, sorted by lo. Never freed (see cfi_table.c). */
struct cfi_tables {
  uint32_t n;
  struct cfi_module m[];
};

/* The rows of one .eh_frame, from its .eh_frame_hdr search table. `hdr` is
 * the mapped .eh_frame_hdr, [lo, hi) the mapped bytes any CFI may lie in.
 * NULL when there is nothing usable. Allocates: never in the handler. */
struct cfi_rows *cfi_rows_parse(const uint8_t *hdr, uint64_t lo, uint64_t hi, uint64_t bias);

/* A parsed table's memory back (tests: the loaded modules' tables are never freed). */
void cfi_rows_free(struct cfi_rows *t);

/* Rebuilds the published set from the loaded objects (dl_iterate_phdr);
 * call with the modules lock held. */
void cfi_tables_refresh(void);

const struct cfi_tables *cfi_tables_current(void); /* signal-safe */

/* The row for runtime address `pc` (a return address already moved back into
 * its call), and the module's bias; NULL when no row covers it. */
const struct cfi_row *cfi_find(const struct cfi_tables *t, uint64_t pc, uint64_t *bias); /* signal-safe */

/* One walker's recent look-ups. The same frames come back walk after walk (a
 * task-heavy program's every creation passes the same runtime and user
 * frames), and two binary searches per frame were most of a creation's cost.
 * A set of rows is never freed once replaced, so (set, pc) names one answer
 * for good. Each walker (a thread's handler, its callbacks) keeps its own:
 * they may interrupt one another. */
#define CFI_MEMO_SIZE 64u
struct cfi_memo {
  struct {
    const struct cfi_tables *t; /* NULL: empty */
    uint64_t pc, bias;
    const struct cfi_row *row; /* NULL: no row covers pc */
  } e[CFI_MEMO_SIZE];
};

/* cfi_find, answered from `memo` when it can be (memo may be NULL). */
const struct cfi_row *cfi_find_memo(const struct cfi_tables *t, uint64_t pc, uint64_t *bias,
                                    struct cfi_memo *memo); /* signal-safe */

#endif
