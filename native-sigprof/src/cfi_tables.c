/*
 * The published set of unwind rows (cfi_table.h): one per loaded object with
 * a PT_GNU_EH_FRAME, rebuilt by modules_rescan whenever the set of objects
 * changes and swapped in with one release store.
 */
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "cfi_table.h"
#include "loaded_objects.h"

/* Rows already built, by file; lives as long as the process (see cfi_table.c). */
struct cached {
  char *name;
  uint64_t hdr_vaddr;
  uint64_t fde_count;
  struct cfi_rows *rows; /* NULL: nothing usable, do not try again */
  struct cached *next;
};

static struct cached *cache;
static const struct cfi_tables *published;

const struct cfi_tables *cfi_tables_current(void) /* signal-safe */
{
  return __atomic_load_n(&published, __ATOMIC_ACQUIRE);
}

const struct cfi_row *cfi_find(const struct cfi_tables *t, uint64_t pc, uint64_t *bias) /* signal-safe */
{
  uint32_t lo = 0, hi = t->n;
  while (lo < hi) { /* first module with m.lo > pc */
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->m[mid].lo <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || pc >= t->m[lo - 1].hi)
    return NULL;
  const struct cfi_module *m = &t->m[lo - 1];
  const struct cfi_rows *r = m->rows;
  uint32_t rel = (uint32_t)(pc - m->bias);
  uint32_t a = 0, b = r->n;
  while (a < b) { /* first row with pc > rel */
    uint32_t mid = a + (b - a) / 2;
    if (r->row[mid].pc <= rel)
      a = mid + 1;
    else
      b = mid;
  }
  if (a == 0 || r->row[a - 1].rule == CFI_NONE)
    return NULL;
  *bias = m->bias;
  return &r->row[a - 1];
}

const struct cfi_row *cfi_find_memo(const struct cfi_tables *t, uint64_t pc, uint64_t *bias,
                                    struct cfi_memo *memo) /* signal-safe */
{
  if (!memo)
    return cfi_find(t, pc, bias);
  uint32_t i = (uint32_t)((pc ^ (pc >> 6) ^ (pc >> 12)) % CFI_MEMO_SIZE);
  if (memo->e[i].t == t && memo->e[i].pc == pc) {
    *bias = memo->e[i].bias;
    return memo->e[i].row;
  }
  uint64_t b = 0;
  const struct cfi_row *row = cfi_find(t, pc, &b);
  memo->e[i].t = t;
  memo->e[i].pc = pc;
  memo->e[i].bias = b;
  memo->e[i].row = row;
  *bias = b;
  return row;
}

/* The mapped segment that holds `vaddr`, as runtime [lo, hi). */
static int segment_of(const struct dl_phdr_info *info, uint64_t vaddr, uint64_t *lo, uint64_t *hi)
{
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && vaddr >= ph->p_vaddr && vaddr < ph->p_vaddr + ph->p_filesz) {
      *lo = info->dlpi_addr + ph->p_vaddr;
      *hi = *lo + ph->p_filesz;
      return 1;
    }
  }
  return 0;
}

static const struct cfi_rows *rows_for(const struct dl_phdr_info *info, uint64_t hdr_vaddr)
{
  uint64_t lo, hi;
  if (!segment_of(info, hdr_vaddr, &lo, &hi) || hdr_vaddr + 12 > hi - info->dlpi_addr)
    return NULL;
  const uint8_t *hdr = (const uint8_t *)(uintptr_t)(info->dlpi_addr + hdr_vaddr);
  uint64_t fde_count;
  memcpy(&fde_count, hdr + 8, 4); /* with the usual udata4 count; only a cache key */
  fde_count &= 0xffffffffu;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  for (struct cached *c = cache; c; c = c->next)
    if (c->hdr_vaddr == hdr_vaddr && c->fde_count == fde_count && strcmp(c->name, name) == 0)
      return c->rows;
  struct cached *c = malloc(sizeof *c);
  char *key = strdup(name);
  if (!c || !key) {
    free(c);
    free(key);
    return NULL;
  }
  *c = (struct cached){key, hdr_vaddr, fde_count, cfi_rows_parse(hdr, lo, hi, info->dlpi_addr), cache};
  cache = c;
  return c->rows;
}

struct build {
  struct cfi_tables *t;
  uint32_t cap;
};

static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
  (void)size;
  struct build *b = arg;
  uint64_t hdr_vaddr = 0, code_lo = UINT64_MAX, code_hi = 0;
  int have_hdr = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_GNU_EH_FRAME) {
      hdr_vaddr = ph->p_vaddr;
      have_hdr = 1;
    } else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      uint64_t lo = info->dlpi_addr + ph->p_vaddr;
      code_lo = lo < code_lo ? lo : code_lo;
      code_hi = lo + ph->p_memsz > code_hi ? lo + ph->p_memsz : code_hi;
    }
  }
  if (!have_hdr || code_lo >= code_hi || b->t->n == b->cap)
    return 0;
  const struct cfi_rows *rows = rows_for(info, hdr_vaddr);
  if (!rows)
    return 0;
  uint32_t j = b->t->n++;
  while (j > 0 && b->t->m[j - 1].lo > code_lo) { /* insertion sort: a few dozen modules */
    b->t->m[j] = b->t->m[j - 1];
    j--;
  }
  b->t->m[j] = (struct cfi_module){code_lo, code_hi, info->dlpi_addr, rows};
  return 0;
}

static int count_module(struct dl_phdr_info *info, size_t size, void *arg)
{
  (void)info;
  (void)size;
  ++*(uint32_t *)arg;
  return 0;
}

void cfi_tables_refresh(void)
{
  /* sized to the objects (plus a few loaded meanwhile): replaced sets are never freed */
  uint32_t cap = 8;
  loaded_objects_iterate(count_module, &cap);
  struct cfi_tables *t = malloc(sizeof *t + cap * sizeof t->m[0]);
  if (!t)
    return; /* the old set stays: modules loaded since walk no further than their first frame */
  t->n = 0;
  struct build b = {t, cap};
  loaded_objects_iterate(add_module, &b);
  /* overlapping code ranges cannot happen between mapped objects; drop any to keep lookups sound */
  uint32_t k = 0;
  for (uint32_t i = 0; i < t->n; i++)
    if (k == 0 || t->m[i].lo >= t->m[k - 1].hi)
      t->m[k++] = t->m[i];
  t->n = k;
  __atomic_store_n(&published, t, __ATOMIC_RELEASE);
}
