/*
 * The executable ranges of the loaded objects: whether a stack word may be a
 * return address. Not for the signal handler.
 */
#include <sched.h>
#include <stdlib.h>

#include "code_ranges.h"
#include "loaded_objects.h"

/* The executable ranges of the loaded objects, sorted: one table for the run, rewritten in place by a rescan (under
 * modules.c's lock) inside a sequence count. Readers on other threads (a callback's creation shape, the wall sampler's
 * rbp guess) take no lock: they read again when a rewrite overlapped theirs. A table replaced at each rescan could
 * never be freed (a reader may hold it): 128 KiB kept for every library MPI_Init loads. */
#define CODE_RANGES_CAP 8192u /* two per object, as many objects as modules.c keeps */
struct code_range {
  uint64_t lo, hi;
};
static struct code_range *ranges;  /* what readers see */
static struct code_range *scanned; /* the next table, built by the scan */
static uint32_t nranges;
static uint32_t ranges_seq; /* odd while ranges is being rewritten */

int code_ranges_init(void)
{
  if (!ranges)
    ranges = calloc(CODE_RANGES_CAP, sizeof *ranges);
  if (!scanned)
    scanned = calloc(CODE_RANGES_CAP, sizeof *scanned);
  return ranges && scanned ? 0 : -1;
}

uint32_t code_ranges_begin(void)
{
  uint32_t seq;
  while ((seq = __atomic_load_n(&ranges_seq, __ATOMIC_ACQUIRE)) & 1u)
    sched_yield();
  return seq;
}

int code_ranges_changed(uint32_t seq)
{
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&ranges_seq, __ATOMIC_RELAXED) != seq;
}

static uint64_t range_lo(uint32_t i)
{
  return __atomic_load_n(&ranges[i].lo, __ATOMIC_RELAXED);
}

static uint64_t range_hi(uint32_t i)
{
  return __atomic_load_n(&ranges[i].hi, __ATOMIC_RELAXED);
}

int code_ranges_contains(uint64_t a)
{
  uint32_t n = __atomic_load_n(&nranges, __ATOMIC_RELAXED);
  /* most stack words (counters, stack and heap addresses) lie outside all code */
  if (!ranges || n == 0 || n > CODE_RANGES_CAP || a < range_lo(0) || a >= range_hi(n - 1))
    return 0;
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (a < range_lo(mid))
      hi = mid;
    else if (a >= range_hi(mid))
      lo = mid + 1;
    else
      return 1;
  }
  return 0;
}

struct range_scan {
  uint32_t n;
};

static int range_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
  (void)size;
  struct range_scan *rs = arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || rs->n == CODE_RANGES_CAP)
      continue;
    uint64_t lo = info->dlpi_addr + ph->p_vaddr;
    uint32_t j = rs->n++;
    while (j > 0 && scanned[j - 1].lo > lo) { /* insertion sort: a few dozen entries */
      scanned[j] = scanned[j - 1];
      j--;
    }
    scanned[j].lo = lo;
    scanned[j].hi = lo + ph->p_memsz;
  }
  return 0;
}

/* One writer at a time (modules.c: under its lock). */
void code_ranges_refresh(void)
{
  if (!ranges || !scanned)
    return;
  struct range_scan rs = {0};
  loaded_objects_iterate(range_cb, &rs);
  uint32_t seq = __atomic_load_n(&ranges_seq, __ATOMIC_RELAXED);
  __atomic_store_n(&ranges_seq, seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE); /* odd before any entry changes */
  for (uint32_t i = 0; i < rs.n; i++) {
    __atomic_store_n(&ranges[i].lo, scanned[i].lo, __ATOMIC_RELAXED);
    __atomic_store_n(&ranges[i].hi, scanned[i].hi, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&nranges, rs.n, __ATOMIC_RELAXED);
  __atomic_store_n(&ranges_seq, seq + 2, __ATOMIC_RELEASE);
}
