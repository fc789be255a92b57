/*
 * .eh_frame to compact unwind rows (cfi_table.h). Only what the walk in the
 * handler can apply cheaply becomes a real row: a CFA from rsp, rbp or rbx plus
 * an offset, the return address at CFA - 8, rbp and rbx saved at an offset from
 * the CFA, and the lazy PLT's CFA expression. Everything else becomes CFI_UNSUPPORTED,
 * where the handler stops and hands a stack slice to the JVM's full unwinder.
 *
 * Tables are never freed: the handler on another thread may be walking an
 * older published set at any moment, and there is no cheap way to know when
 * it is done. Rows are keyed by file (name, .eh_frame_hdr address, FDE count)
 * and relative to the load bias, so a library loaded and unloaded again and
 * again shares one table; only the small module arrays are left behind.
 */
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cfi_table.h"

#define REG_RBX     3
#define REG_RBP     6
#define REG_RSP     7
#define REG_RA      16
#define STATE_STACK 8

/* A bounds-checked reader over mapped CFI bytes. */
struct cur {
  const uint8_t *p, *end;
  int bad;
};

static uint64_t get(struct cur *c, unsigned n)
{
  if (c->bad || (uintptr_t)c->p > (uintptr_t)c->end || (uintptr_t)c->end - (uintptr_t)c->p < n) {
    c->bad = 1;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)c->p[i] << (8 * i);
  c->p += n;
  return v;
}

static uint64_t uleb(struct cur *c)
{
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    uint64_t b = get(c, 1);
    v |= (b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
  c->bad = 1;
  return 0;
}

static int64_t sleb(struct cur *c)
{
  int64_t v = 0;
  unsigned shift = 0;
  uint64_t b;
  do {
    b = get(c, 1);
    v |= (int64_t)((b & 0x7f) << shift);
    shift += 7;
  } while ((b & 0x80) && shift < 64 && !c->bad);
  if (shift < 64 && (b & 0x40))
    v |= -((int64_t)1 << shift);
  return v;
}

/* A DW_EH_PE-encoded pointer; `datarel` is the .eh_frame_hdr's address. */
static uint64_t encoded(struct cur *c, uint8_t enc, uint64_t datarel)
{
  if (enc == 0xff)
    return 0;
  uint64_t at = (uint64_t)(uintptr_t)c->p, v;
  switch (enc & 0x0f) {
  case 0x00:
    v = get(c, 8);
    break;
  case 0x01:
    v = uleb(c);
    break;
  case 0x02:
    v = get(c, 2);
    break;
  case 0x03:
    v = get(c, 4);
    break;
  case 0x04:
    v = get(c, 8);
    break;
  case 0x09:
    v = (uint64_t)sleb(c);
    break;
  case 0x0a:
    v = (uint64_t)(int64_t)(int16_t)get(c, 2);
    break;
  case 0x0b:
    v = (uint64_t)(int64_t)(int32_t)get(c, 4);
    break;
  case 0x0c:
    v = get(c, 8);
    break;
  default:
    c->bad = 1;
    return 0;
  }
  switch (enc & 0x70) {
  case 0x00:
    break;
  case 0x10:
    v += at;
    break;
  case 0x30:
    v += datarel;
    break;
  default:
    c->bad = 1;
    return 0; /* textrel, funcrel, aligned: not emitted on x86-64 Linux */
  }
  if (enc & 0x80)
    c->bad = 1; /* indirect: only personality pointers use it, and those are skipped by size */
  return v;
}

/* The CFI state of one location. */
struct state {
  uint8_t cfa_reg;  /* REG_RSP, REG_RBP, other; 0xff: expression */
  uint8_t plt;      /* the expression is the lazy PLT's; cfa_off then holds its threshold */
  uint8_t rbp_kind; /* 0 unchanged, 1 saved at CFA + rbp_off, 2 anything else */
  uint8_t rbx_kind; /* the same for rbx (3: undefined) */
  uint8_t ra_kind;  /* 0 at CFA - 8, 1 undefined, 2 anything else */
  int64_t cfa_off;
  int64_t rbp_off;
  int64_t rbx_off;
};

struct cie {
  const uint8_t *insns, *insns_end;
  uint64_t code_align;
  int64_t data_align;
  uint8_t fde_enc;
  uint8_t has_aug_data;
  uint8_t signal_frame;
  uint8_t ra_reg;
};

/* The rows as they are parsed, in a mapping of their own that becomes the table (struct cfi_rows, whose header
 * comes first): a module's rows are hundreds of kilobytes, and grown and freed in the program's malloc heap they left
 * it with free room at its top, which a program looking at its first allocations (do they grow the heap with brk?)
 * would see. Never with malloc, then. */
struct row_buf {
  struct cfi_rows *t; /* NULL until the first row */
  struct cfi_row *r;  /* t->row */
  uint32_t n, cap;
  size_t bytes; /* of the mapping */
  int oom;
};

static size_t rows_bytes(uint32_t cap)
{
  size_t page = 4096, bytes = sizeof(struct cfi_rows) + (size_t)cap * sizeof(struct cfi_row);
  return (bytes + page - 1) / page * page;
}

/* Room for `cap` rows, the mapping moved if need be; 0 when out of memory. */
static int rows_grow(struct row_buf *b, uint32_t cap)
{
  size_t bytes = rows_bytes(cap);
  void *m = b->t ? mremap(b->t, b->bytes, bytes, MREMAP_MAYMOVE)
                 : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 0;
  b->t = m;
  b->r = b->t->row;
  b->cap = cap;
  b->bytes = bytes;
  return 1;
}

static void rows_drop(struct row_buf *b)
{
  if (b->t)
    munmap(b->t, b->bytes);
  b->t = NULL;
}

void cfi_rows_free(struct cfi_rows *t)
{
  if (t)
    munmap(t, rows_bytes(t->n));
}

/* The rows as a table, its mapping cut to their size. */
static struct cfi_rows *rows_table(struct row_buf *b)
{
  struct cfi_rows *t = b->t;
  t->n = b->n;
  size_t bytes = rows_bytes(b->n);
  if (bytes < b->bytes && mremap(t, b->bytes, bytes, 0) != MAP_FAILED)
    b->bytes = bytes;
  return t;
}

/* Where the caller's rbx is, in a row's terms: only a frame whose CFA is rbx needs it. */
static int8_t rbx_slot(const struct state *s)
{
  if (s->rbx_kind == 0)
    return 0;
  if (s->rbx_kind != 1 || s->rbx_off == 0 || s->rbx_off % 8 != 0 || s->rbx_off / 8 <= CFI_RBX_LOST ||
      s->rbx_off / 8 > INT8_MAX)
    return CFI_RBX_LOST;
  return (int8_t)(s->rbx_off / 8);
}

static struct cfi_row row_of(const struct state *s, const struct cie *cie, uint32_t pc)
{
  struct cfi_row r = {pc, 0, 0, CFI_UNSUPPORTED, rbx_slot(s)};
  if (cie->signal_frame || s->ra_kind == 2 || s->rbp_kind == 2)
    return r;
  if (s->ra_kind == 1) {
    r.rule = CFI_OUTERMOST;
    return r;
  }
  if (s->rbp_kind == 1) {
    if (s->rbp_off == 0 || s->rbp_off < INT16_MIN || s->rbp_off > INT16_MAX)
      return r;
    r.rbp_off = (int16_t)s->rbp_off;
  }
  if (s->cfa_off < INT32_MIN || s->cfa_off > INT32_MAX)
    return r;
  r.cfa_off = (int32_t)s->cfa_off;
  if (s->plt)
    r.rule = CFI_PLT;
  else if (s->cfa_reg == REG_RSP)
    r.rule = CFI_RSP;
  else if (s->cfa_reg == REG_RBP)
    r.rule = CFI_RBP;
  else if (s->cfa_reg == REG_RBX)
    r.rule = CFI_RBX;
  return r;
}

static int same_rules(const struct cfi_row *a, const struct cfi_row *b)
{
  return a->rule == b->rule && a->cfa_off == b->cfa_off && a->rbp_off == b->rbp_off && a->rbx_off8 == b->rbx_off8;
}

static void push(struct row_buf *b, struct cfi_row r)
{
  if (b->n > 0 && b->r[b->n - 1].pc == r.pc) {
    b->r[b->n - 1] = r; /* the later rule for the same address wins */
  } else {
    if (b->n > 0) {
      const struct cfi_row *last = &b->r[b->n - 1];
      if (same_rules(last, &r))
        return;
    }
    if (b->n == b->cap && !rows_grow(b, b->cap ? 2 * b->cap : 1024)) {
      b->oom = 1;
      return;
    }
    b->r[b->n++] = r;
  }
  /* merging may have made it equal to the one before */
  if (b->n >= 2) {
    const struct cfi_row *a = &b->r[b->n - 2], *c = &b->r[b->n - 1];
    if (same_rules(a, c))
      b->n--;
  }
}

/* The lazy PLT's CFA (binutils): DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and;
 * DW_OP_litN; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus. Returns N, or -1. */
static int plt_threshold(const uint8_t *e, uint64_t len)
{
  static const uint8_t head[] = {0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a};
  static const uint8_t tail[] = {0x2a, 0x33, 0x24, 0x22};
  if (len != sizeof head + 1 + sizeof tail || memcmp(e, head, sizeof head) != 0 ||
      memcmp(e + sizeof head + 1, tail, sizeof tail) != 0)
    return -1;
  uint8_t lit = e[sizeof head];
  return lit >= 0x30 && lit <= 0x4f ? lit - 0x30 : -1;
}

struct interp {
  struct state s, initial;
  struct state stack[STATE_STACK];
  unsigned depth;
  uint64_t loc;
};

static void set_reg(struct state *s, uint64_t reg, int kind, int64_t off)
{
  if (reg == REG_RBP) {
    s->rbp_kind = (uint8_t)kind;
    s->rbp_off = off;
  } else if (reg == REG_RBX) {
    s->rbx_kind = (uint8_t)kind;
    s->rbx_off = off;
  } else if (reg == REG_RA) {
    /* offset rules: only CFA - 8 is the walk's; undefined ends it */
    s->ra_kind = kind == 1 && off == -8 ? 0 : kind == 3 ? 1 : 2;
  }
}

static void restore_reg(struct interp *in, uint64_t reg)
{
  if (reg == REG_RBP) {
    in->s.rbp_kind = in->initial.rbp_kind;
    in->s.rbp_off = in->initial.rbp_off;
  } else if (reg == REG_RBX) {
    in->s.rbx_kind = in->initial.rbx_kind;
    in->s.rbx_off = in->initial.rbx_off;
  } else if (reg == REG_RA) {
    in->s.ra_kind = in->initial.ra_kind;
  }
}

/* Runs CFA instructions until `end` or until the location passes `pc_end`,
 * emitting a row before every advance. Returns 0 on malformed CFI. */
static int run(struct interp *in, struct cur *c, const struct cie *cie, uint64_t bias, uint64_t pc_end,
               struct row_buf *rows)
{
  while (c->p < c->end && !c->bad) {
    uint8_t op = (uint8_t)get(c, 1);
    uint64_t adv = 0, reg;
    switch (op >> 6) {
    case 1:
      adv = (op & 0x3f) * cie->code_align;
      goto advance;
    case 2:
      set_reg(&in->s, op & 0x3f, 1, (int64_t)uleb(c) * cie->data_align);
      continue;
    case 3:
      restore_reg(in, op & 0x3f);
      continue;
    default:
      break;
    }
    switch (op) {
    case 0x00:
      break;     /* nop */
    case 0x01: { /* set_loc */
      uint64_t to = encoded(c, cie->fde_enc, 0);
      if (to < in->loc)
        return 0;
      adv = to - in->loc;
      goto advance;
    }
    case 0x02:
      adv = get(c, 1) * cie->code_align;
      goto advance;
    case 0x03:
      adv = get(c, 2) * cie->code_align;
      goto advance;
    case 0x04:
      adv = get(c, 4) * cie->code_align;
      goto advance;
    case 0x05:
      reg = uleb(c);
      set_reg(&in->s, reg, 1, (int64_t)uleb(c) * cie->data_align);
      break;
    case 0x06:
      restore_reg(in, uleb(c));
      break;
    case 0x07:
      set_reg(&in->s, uleb(c), 3, 0);
      break; /* undefined */
    case 0x08:
      set_reg(&in->s, uleb(c), 0, 0);
      break; /* same_value */
    case 0x09:
      reg = uleb(c);
      uleb(c);
      set_reg(&in->s, reg, 2, 0);
      break;   /* register */
    case 0x0a: /* remember_state */
      if (in->depth == STATE_STACK)
        return 0;
      in->stack[in->depth++] = in->s;
      break;
    case 0x0b: /* restore_state: the CFA rule is restored too (as GCC and LLVM emit it) */
      if (in->depth == 0)
        return 0;
      in->s = in->stack[--in->depth];
      break;
    case 0x0c:
      in->s.cfa_reg = (uint8_t)uleb(c);
      in->s.cfa_off = (int64_t)uleb(c);
      in->s.plt = 0;
      break;
    case 0x0d:
      in->s.cfa_reg = (uint8_t)uleb(c);
      in->s.plt = 0;
      break;
    case 0x0e:
      in->s.cfa_off = (int64_t)uleb(c);
      break;
    case 0x0f: { /* def_cfa_expression */
      uint64_t len = uleb(c);
      if (c->bad || (uint64_t)(c->end - c->p) < len)
        return 0;
      int t = plt_threshold(c->p, len);
      in->s.cfa_reg = 0xff;
      in->s.plt = t >= 0;
      in->s.cfa_off = t;
      c->p += len;
      break;
    }
    case 0x10:   /* expression */
    case 0x16: { /* val_expression */
      reg = uleb(c);
      uint64_t len = uleb(c);
      if (c->bad || (uint64_t)(c->end - c->p) < len)
        return 0;
      c->p += len;
      set_reg(&in->s, reg, 2, 0);
      break;
    }
    case 0x11:
      reg = uleb(c);
      set_reg(&in->s, reg, 1, sleb(c) * cie->data_align);
      break;
    case 0x12:
      in->s.cfa_reg = (uint8_t)uleb(c);
      in->s.cfa_off = sleb(c) * cie->data_align;
      in->s.plt = 0;
      break;
    case 0x13:
      in->s.cfa_off = sleb(c) * cie->data_align;
      break;
    case 0x14:
      reg = uleb(c);
      uleb(c);
      set_reg(&in->s, reg, 2, 0);
      break; /* val_offset */
    case 0x15:
      reg = uleb(c);
      sleb(c);
      set_reg(&in->s, reg, 2, 0);
      break; /* val_offset_sf */
    case 0x2e:
      uleb(c);
      break; /* GNU_args_size */
    case 0x2f:
      reg = uleb(c);
      set_reg(&in->s, reg, 1, -(int64_t)uleb(c) * cie->data_align);
      break;
    default:
      return 0;
    }
    continue;
  advance:
    if (rows && in->loc < pc_end)
      push(rows, row_of(&in->s, cie, (uint32_t)(in->loc - bias)));
    in->loc += adv;
  }
  return !c->bad;
}

/* Parses the CIE at `p` (its length field). */
static int parse_cie(const uint8_t *p, uint64_t lo, uint64_t hi, struct cie *cie)
{
  struct cur c = {p, (const uint8_t *)(uintptr_t)hi, (uint64_t)(uintptr_t)p < lo};
  uint64_t len = get(&c, 4);
  if (len == 0 || len == 0xffffffffu || len > hi - (uint64_t)(uintptr_t)c.p || (uint64_t)(uintptr_t)p < lo)
    return 0;
  c.end = c.p + len;
  if (get(&c, 4) != 0)
    return 0; /* not a CIE */
  uint64_t version = get(&c, 1);
  if (version != 1 && version != 3)
    return 0;
  const char *aug = (const char *)c.p;
  size_t alen = strnlen(aug, (size_t)(c.end - c.p));
  if (alen == (size_t)(c.end - c.p))
    return 0;
  c.p += alen + 1;
  if (aug[0] == 'e' && aug[1] == 'h')
    get(&c, 8);
  memset(cie, 0, sizeof *cie);
  cie->code_align = uleb(&c);
  cie->data_align = sleb(&c);
  cie->ra_reg = (uint8_t)(version == 1 ? get(&c, 1) : uleb(&c));
  const uint8_t *after_aug = NULL;
  for (const char *a = aug; *a && !c.bad; a++) {
    switch (*a) {
    case 'z': {
      uint64_t n = uleb(&c);
      if (n > (uint64_t)(c.end - c.p))
        return 0;
      after_aug = c.p + n;
      cie->has_aug_data = 1;
      break;
    }
    case 'L':
      get(&c, 1);
      break;
    case 'R':
      cie->fde_enc = (uint8_t)get(&c, 1);
      break;
    case 'S':
      cie->signal_frame = 1;
      break;
    case 'P': {
      uint8_t enc = (uint8_t)get(&c, 1);
      encoded(&c, enc & 0x7f, 0);
      break;
    }
    case 'e':
    case 'h':
      break;
    default:
      if (!after_aug)
        return 0; /* unknown augmentation without a size to skip it by */
      goto done;  /* the size says where the data ends */
    }
  }
done:
  if (after_aug)
    c.p = after_aug;
  if (c.bad || cie->ra_reg != REG_RA || cie->code_align == 0)
    return 0;
  cie->insns = c.p;
  cie->insns_end = c.end;
  return 1;
}

/* One FDE's rows. */
static void parse_fde(const uint8_t *p, uint64_t lo, uint64_t hi, uint64_t bias, uint64_t datarel, struct row_buf *rows,
                      const uint8_t **cie_at, struct cie *cie)
{
  struct cur c = {p, (const uint8_t *)(uintptr_t)hi, (uint64_t)(uintptr_t)p < lo};
  uint64_t len = get(&c, 4);
  if (c.bad || len == 0 || len == 0xffffffffu || len > hi - (uint64_t)(uintptr_t)c.p)
    return;
  c.end = c.p + len;
  const uint8_t *id_at = c.p;
  uint64_t id = get(&c, 4);
  if (id == 0 || id > (uint64_t)(uintptr_t)id_at)
    return;
  const uint8_t *cp = id_at - id;
  if (cp != *cie_at) {
    if (!parse_cie(cp, lo, hi, cie)) {
      *cie_at = NULL;
      return;
    }
    *cie_at = cp;
  }
  uint64_t start = encoded(&c, cie->fde_enc, datarel);
  uint64_t range = encoded(&c, cie->fde_enc & 0x0f, 0);
  if (cie->has_aug_data) {
    uint64_t n = uleb(&c);
    if (n > (uint64_t)(c.end - c.p))
      return;
    c.p += n;
  }
  if (c.bad || start < bias || start + range - bias > UINT32_MAX || range == 0)
    return;
  struct interp in;
  memset(&in, 0, sizeof in);
  in.s.cfa_reg = REG_RSP;
  in.loc = start;
  struct cur ic = {cie->insns, cie->insns_end, 0};
  if (!run(&in, &ic, cie, bias, 0, NULL))
    return;
  in.initial = in.s;
  in.loc = start;
  uint32_t mark = rows->n;
  if (!run(&in, &c, cie, bias, start + range, rows)) {
    rows->n = mark; /* malformed: no rows rather than wrong ones */
    return;
  }
  if (in.loc < start + range)
    push(rows, row_of(&in.s, cie, (uint32_t)(in.loc - bias)));
  /* the end of the function: no row until the next FDE begins */
  push(rows, (struct cfi_row){(uint32_t)(start + range - bias), 0, 0, CFI_NONE, 0});
}

static int by_pc(const void *a, const void *b)
{
  uint32_t x = ((const struct cfi_row *)a)->pc, y = ((const struct cfi_row *)b)->pc;
  return x < y ? -1 : x > y;
}

struct cfi_rows *cfi_rows_parse(const uint8_t *hdr, uint64_t lo, uint64_t hi, uint64_t bias)
{
  uint64_t datarel = (uint64_t)(uintptr_t)hdr;
  struct cur c = {hdr, (const uint8_t *)(uintptr_t)hi, datarel < lo};
  uint64_t version = get(&c, 1);
  uint8_t frame_enc = (uint8_t)get(&c, 1), count_enc = (uint8_t)get(&c, 1), table_enc = (uint8_t)get(&c, 1);
  if (c.bad || version != 1 || table_enc != 0x3b)
    return NULL; /* only the sorted datarel sdata4 table that every linker writes */
  encoded(&c, frame_enc, datarel);
  uint64_t count = encoded(&c, count_enc, datarel);
  if (c.bad || count == 0 || count > (uint64_t)(c.end - c.p) / 8)
    return NULL;
  struct row_buf rows = {0};
  const uint8_t *cie_at = NULL;
  struct cie cie;
  for (uint64_t i = 0; i < count && !rows.oom; i++) {
    get(&c, 4);
    uint64_t fde = datarel + (uint64_t)(int64_t)(int32_t)get(&c, 4);
    if (fde >= lo && fde < hi)
      parse_fde((const uint8_t *)(uintptr_t)fde, lo, hi, bias, datarel, &rows, &cie_at, &cie);
  }
  if (rows.oom || rows.n == 0) {
    rows_drop(&rows);
    return NULL;
  }
  for (uint32_t i = 1; i < rows.n; i++)
    if (rows.r[i].pc < rows.r[i - 1].pc) {
      /* overlapping FDEs: sorted stably enough for a lookup (rare; the hdr table is sorted) */
      qsort(rows.r, rows.n, sizeof rows.r[0], by_pc);
      break;
    }
  return rows_table(&rows);
}
