/*
 * Register and stack capture, shared by the SIGPROF handler (registers come
 * from the interrupted context) and by callbacks that record a calling
 * context (registers of the callback itself).
 */
#ifndef OMPPROF_CAPTURE_H
#define OMPPROF_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "ompprof_wire.h"
#include "ring.h"

#if !defined(__x86_64__)
#error "ompprof's agent captures x86-64 registers only"
#endif

/*
 * Copy that never calls into libc: the compiler may turn a plain loop into a
 * memcpy call, and even though memcpy is harmless in practice, the handler
 * must not depend on that. `rep movsb` is fast for the multi-KiB snapshots
 * (ERMS) and the kernel clears DF on signal delivery, as the ABI requires;
 * but it costs tens of cycles to start, even for 0 bytes, and the callbacks
 * copy a record's body of about a hundred bytes a few million times a second
 * (three copies per region were most of the time a region's records took to
 * write). Those go word by word; the empty asm leaves the compiler no loop to
 * turn into a call.
 */
#define SIG_COPY_WORDS_UP_TO 256u

static inline __attribute__((always_inline)) void sig_copy(void *dst, const void *src, size_t n) /* signal-safe */
{
  if (n > SIG_COPY_WORDS_UP_TO) {
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
    return;
  }
  uint8_t *d = dst;
  const uint8_t *s = src;
  for (; n >= 8; n -= 8, d += 8, s += 8) {
    uint64_t w;
    __builtin_memcpy(&w, s, 8);
    __builtin_memcpy(d, &w, 8);
    __asm__("" : "+r"(d), "+r"(s));
  }
  for (; n; n--, d++, s++) {
    *d = *s;
    __asm__("" : "+r"(d), "+r"(s));
  }
}

/*
 * Must be expanded inside the function whose context is recorded (a macro,
 * not a function) so that rip lies in that function and rsp/rbp are its own:
 * the unwinder applies that function's CFI at rip, which only works if rsp is
 * the value the CFI describes at that very instruction.
 */
#define CAPTURE_HERE(ctxp)                                                                                             \
  do {                                                                                                                 \
    uint64_t rip_, rsp_, rbp_;                                                                                         \
    __asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2" : "=&r"(rip_), "=&r"(rsp_), "=&r"(rbp_));    \
    (ctxp)->rip = rip_;                                                                                                \
    (ctxp)->rsp = rsp_;                                                                                                \
    (ctxp)->rbp = rbp_;                                                                                                \
    (ctxp)->stack_len = 0;                                                                                             \
    (ctxp)->ctx_flags = 0;                                                                                             \
    (ctxp)->frame_count = 0;                                                                                           \
    (ctxp)->walk_stop = 0;                                                                                             \
  } while (0)

/*
 * Decides how many stack bytes to copy from ctx->rsp given the thread's
 * known bounds, and sets the context flags. Only [rsp, stack_hi) is copied:
 * that range is always mapped for a thread running on its own stack, while
 * anything outside the bounds (alternate signal stacks, coroutines) might not
 * be, so it is refused rather than risk a fault in a signal handler.
 */
/* Bytes of stack above a task's exit frame that snapshots still keep: the
 * exit frame is the frame address (CFA - 16) of the runtime frame that called
 * the task's code, so that frame's CFA lies inside this margin. */
#define EXIT_FRAME_MARGIN 64u

static inline uint32_t snapshot_len(struct ompprof_context *ctx, uint64_t stack_lo, uint64_t stack_hi,
                                    uint32_t stack_bytes) /* signal-safe */
{
  if (stack_hi == 0) {
    ctx->ctx_flags |= OMPPROF_CTX_NO_BOUNDS;
    return 0;
  }
  if (ctx->rsp < stack_lo || ctx->rsp >= stack_hi) {
    ctx->ctx_flags |= OMPPROF_CTX_OFF_STACK;
    return 0;
  }
  uint64_t avail = stack_hi - ctx->rsp;
  if (avail > stack_bytes) {
    ctx->ctx_flags |= OMPPROF_CTX_TRUNCATED;
    return stack_bytes;
  }
  return (uint32_t)avail;
}

/* Copies the snapshot and zeroes the alignment padding so that no stale ring
 * bytes leak into the record. The padding word is cleared before the copy
 * (which then overwrites its live part) to avoid a byte loop the compiler
 * could turn into a memset call. (Non-temporal stores were tried here to
 * spare the read-for-ownership of cold ring lines: no measurable gain.) */
static inline void snapshot_copy(uint8_t *dst, uint64_t rsp, uint32_t n) /* signal-safe */
{
  if (n & 7u)
    __atomic_store_n((uint64_t *)(void *)(dst + (n & ~7u)), 0, __ATOMIC_RELAXED);
  sig_copy(dst, (const void *)(uintptr_t)rsp, n);
}

#endif
