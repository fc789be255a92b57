/* The handler's frame walk against libgcc's unwinder (_Unwind_Backtrace, a full DWARF CFI
 * interpreter) on known stacks: six 48 KiB frames, 300 recursive frames, a frame whose CFA is
 * rbx (as the loader's lazy-binding resolver's); and the .eh_frame parser on random and cut
 * bytes. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "capture.h"
#include "check.h"
#include "frame_walk.h"

#define BT_MAX 1024

struct bt {
  uint64_t ip[BT_MAX], cfa[BT_MAX];
  int n;
};

static _Unwind_Reason_Code bt_step(struct _Unwind_Context *c, void *arg)
{
  struct bt *b = arg;
  if (b->n == BT_MAX)
    return _URC_END_OF_STACK;
  b->ip[b->n] = _Unwind_GetIP(c);
  b->cfa[b->n] = _Unwind_GetCFA(c);
  b->n++;
  return _URC_NO_REASON;
}

static uint64_t stack_top(void)
{
  pthread_attr_t a;
  void *lo;
  size_t size;
  pthread_getattr_np(pthread_self(), &a);
  pthread_attr_getstack(&a, &lo, &size);
  pthread_attr_destroy(&a);
  return (uint64_t)(uintptr_t)lo + size;
}

static int compared;

#define RBX_FRAME_WALK 4 /* leaf, under_rbx_frame, rbx_aligned_frame, main */

/* Walks from here and checks every frame against libgcc's. */
static __attribute__((noinline)) void leaf(int want_at_least)
{
  struct ompprof_context ctx;
  uint64_t rbx;
  CAPTURE_HERE(&ctx);
  __asm__ volatile("lea 0(%%rip), %0\n\tmov %%rbx, %1" : "=&r"(ctx.rip), "=&r"(rbx)); /* as a signal's context */
  struct bt bt = {.n = 0};
  _Unwind_Backtrace(bt_step, &bt);
  static struct ompprof_frame out[OMPPROF_MAX_WALK_FRAMES];
  struct walk_regs at = {ctx.rip, ctx.rsp, ctx.rbp, rbx, 1};
  struct walk_bounds b = {ctx.rsp, stack_top(), UINT64_MAX, OMPPROF_MAX_WALK_FRAMES};
  uint32_t stop;
  struct walk_regs from = at;
  uint32_t n = frame_walk(cfi_tables_current(), NULL, &at, &b, out, &stop, NULL);
  CHECK((int)n >= want_at_least, "walked %u frames, want at least %d (stop %u)", n, want_at_least, stop);
  static struct ompprof_frame again[OMPPROF_MAX_WALK_FRAMES];
  /* the log holds every return address the walk followed, where it read it */
  struct walk_log log = {0};
  struct walk_regs at3 = from;
  uint32_t stop3, n3 = frame_walk(cfi_tables_current(), NULL, &at3, &b, again, &stop3, &log);
  CHECK(n3 == n && log.n >= n3 - 1, "logged %u reads for %u frames", log.n, n3);
  /* a walk that took a CFA from rbx says it cannot be replayed: more reads than the log holds */
  if (want_at_least == RBX_FRAME_WALK)
    CHECK(log.n > WALK_LOG_READS, "log of %u reads", log.n);
  for (uint32_t k = 1; k < n3 && k <= WALK_LOG_READS && log.n <= WALK_LOG_READS; k++) {
    int found = 0;
    for (uint32_t i = 0; i < log.n && i < WALK_LOG_READS; i++)
      found |= log.addr[i] == again[k].sp - 8 && log.val[i] == again[k].pc;
    CHECK(found, "frame %u's return address %llx at %llx logged", k, (unsigned long long)again[k].pc,
          (unsigned long long)(again[k].sp - 8));
  }
  CHECK(log.max_end >= at3.sp, "reads reach the last frame: %llx < %llx", (unsigned long long)log.max_end,
        (unsigned long long)at3.sp);
  /* with a memo, cold and then warm, the walk is the same frame for frame */
  static struct cfi_memo memo;
  for (int pass = 0; pass < 2; pass++) {
    struct walk_regs at2 = from;
    uint32_t stop2, n2 = frame_walk(cfi_tables_current(), &memo, &at2, &b, again, &stop2, NULL);
    CHECK(n2 == n && stop2 == stop && memcmp(again, out, n * sizeof out[0]) == 0 && at2.pc == at.pc && at2.sp == at.sp,
          "memo pass %d: %u frames (stop %u) vs %u (stop %u)", pass, n2, stop2, n, stop);
  }
  CHECK(n < (uint32_t)bt.n, "walked %u frames, libgcc %d", n, bt.n);
  /* frame k >= 1 is a return address: libgcc's frame k, whose "CFA" (_Unwind_GetCFA) is the sp
   * of that frame, i.e. the CFA of the frame it called */
  for (uint32_t k = 1; k < n && (int)k < bt.n; k++) {
    CHECK(out[k].pc == bt.ip[k], "frame %u pc %#lx, libgcc %#lx", k, (unsigned long)out[k].pc, (unsigned long)bt.ip[k]);
    CHECK(out[k].sp == bt.cfa[k], "frame %u sp %#lx, libgcc's %#lx", k, (unsigned long)out[k].sp,
          (unsigned long)bt.cfa[k]);
  }
  if ((int)n < bt.n)
    CHECK(at.pc == bt.ip[n], "stopped at %#lx, libgcc's frame %u %#lx", (unsigned long)at.pc, n,
          (unsigned long)bt.ip[n]);
  compared++;
}

static volatile char sink;

static __attribute__((noinline)) void big(int depth)
{
  volatile char buf[48 * 1024];
  buf[depth] = (char)depth;
  if (depth > 0)
    big(depth - 1);
  else
    leaf(6 + 2);
  sink = buf[depth];
}

static __attribute__((noinline)) int recurse(int depth)
{
  volatile int pad[4] = {depth, 0, 0, 0};
  if (depth > 0)
    return recurse(depth - 1) + pad[0];
  leaf(300);
  return pad[0];
}

/* Calls fn on a stack realigned to 64 bytes, the CFA kept in rbx: the loader's
 * _dl_runtime_resolve_xsavec has this shape, and a sample in it or under it has to walk out. */
void rbx_aligned_frame(void (*fn)(void));
__asm__(".text\n"
        ".globl rbx_aligned_frame\n"
        ".hidden rbx_aligned_frame\n"
        ".type rbx_aligned_frame, @function\n"
        "rbx_aligned_frame:\n"
        ".cfi_startproc\n"
        "push %rbx\n"
        ".cfi_adjust_cfa_offset 8\n"
        ".cfi_offset %rbx, -16\n"
        "mov %rsp, %rbx\n"
        ".cfi_def_cfa_register %rbx\n"
        "and $-64, %rsp\n"
        "sub $192, %rsp\n"
        "call *%rdi\n"
        "mov %rbx, %rsp\n"
        ".cfi_def_cfa_register %rsp\n"
        "pop %rbx\n"
        ".cfi_adjust_cfa_offset -8\n"
        ".cfi_restore %rbx\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size rbx_aligned_frame, .-rbx_aligned_frame\n");

static __attribute__((noinline)) void under_rbx_frame(void)
{
  leaf(RBX_FRAME_WALK);
  sink = 1;
}

static void parser_survives_garbage(void)
{
  static uint8_t buf[4096];
  test_rng_seed(15);
  for (int round = 0; round < 2000; round++) {
    for (size_t i = 0; i < sizeof buf; i++)
      buf[i] = (uint8_t)test_rng();
    /* a plausible header half of the time, so that the FDE and CIE parsers are reached */
    if (round & 1) {
      buf[0] = 1, buf[1] = 0x1b, buf[2] = 0x03, buf[3] = 0x3b;
      buf[8] = (uint8_t)(test_rng() % 64), buf[9] = buf[10] = buf[11] = 0;
      for (int k = 0; k < buf[8]; k++) {
        int32_t fde = (int32_t)(test_rng() % (sizeof buf - 64));
        memcpy(buf + 12 + 8 * k + 4, &fde, 4);
      }
    }
    uint64_t len = test_rng() % sizeof buf;
    struct cfi_rows *r = cfi_rows_parse(buf, (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)buf + len, 0);
    if (r) {
      for (uint32_t i = 1; i < r->n; i++)
        CHECK(r->row[i - 1].pc <= r->row[i].pc, "rows unsorted");
      cfi_rows_free(r);
    }
  }
  CHECK(1, "no crash");
}

int main(void)
{
  cfi_tables_refresh();
  CHECK(cfi_tables_current() != NULL && cfi_tables_current()->n > 0, "no tables");
  big(5);
  (void)recurse(300);
  rbx_aligned_frame(under_rbx_frame);
  CHECK(compared == 3, "compared %d", compared);
  parser_survives_garbage();
  printf("frame_walk_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
