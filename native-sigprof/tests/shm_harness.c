/*
 * Plays the JVM's part for the smoke test: creates and sizes the region,
 * fills its header, runs the program with the agent, drains the rings while
 * it runs (capturing held module files through /proc/<pid>/fd and freeing
 * ended slots, as the JVM does), then checks what the agent recorded.
 *
 *   shm_harness --agent LIB [--mode wall|cpu] [--rate HZ] [--threads N]
 *               [--slots N] [--keep-file] -- PROGRAM ARGS...
 *
 * Exit status 0 when every check passes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ompprof_wire.h"

#define SAMPLE_RING  (1u << 20)
#define EVENT_RING   (1u << 20)
#define STACK_BYTES  16384u
#define WALL_ENDS_NS 20000000u /* what a wall-mode thread's samples may leave untiled at its two ends */

struct rec {
  uint32_t slot;
  uint8_t *bytes; /* copy, header included */
};

static struct ompprof_region_header *H;
static uint8_t *base;
static uint64_t slot_size;
static uint32_t SLOTS = 8;
static pid_t child;
static volatile int child_done;
static const char *shm_path;
static int keep_file, unlinked;

static struct rec *recs;
static size_t nrecs, caprecs;
static int ring_errors;
static int modules_opened, modules_open_failed;
static int slots_freed;

static int failures;
static void fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "CHECK FAILED: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  failures++;
}

static struct ompprof_slot_header *slot_at(uint32_t i)
{
  return (void *)(base + OMPPROF_REGION_HEADER_SIZE + (uint64_t)i * slot_size);
}

/* What the JVM does with a MODULE record that holds an fd: open the file
 * through /proc while the program is alive, check it is the same file, copy
 * it (here: read its ELF magic), then tell the agent. */
static void capture_module(const uint8_t *r)
{
  const struct ompprof_module *m = (const void *)(r + 16);
  if (!(m->flags & OMPPROF_MOD_FD_HELD))
    return;
  char p[64];
  snprintf(p, sizeof p, "/proc/%d/fd/%d", (int)child, m->fd);
  int fd = open(p, O_RDONLY | O_CLOEXEC);
  struct stat st;
  char magic[4] = {0};
  if (fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_ino == m->ino && (uint64_t)st.st_dev == m->dev &&
      read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4))
    modules_opened++;
  else
    modules_open_failed++;
  if (fd >= 0)
    close(fd);
  __atomic_add_fetch(&H->modules_captured, 1, __ATOMIC_RELEASE);
}

static void drain_ring(uint32_t slot, struct ompprof_ring_prod *prod, struct ompprof_ring_cons *cons, uint8_t *data,
                       uint64_t size)
{
  uint64_t w = __atomic_load_n(&prod->write_pos, __ATOMIC_ACQUIRE);
  uint64_t r = cons->read_pos;
  while (r < w) {
    uint64_t off = r & (size - 1);
    const struct ompprof_record_header *h = (const void *)(data + off);
    if (h->size < 8 || h->size % 8 || off + h->size > size || r + h->size > w || h->version != OMPPROF_REC_VERSION ||
        (h->type != OMPPROF_REC_PAD && h->size < 16) || h->type >= OMPPROF_REC_TYPES) {
      fail("slot %u: malformed record at position %" PRIu64 " (size %u type %u version %u)", slot, r, h->size, h->type,
           h->version);
      ring_errors++;
      r = w; /* give up on this ring */
      break;
    }
    if (h->type != OMPPROF_REC_PAD) {
      if (nrecs == caprecs) {
        caprecs = caprecs ? caprecs * 2 : 4096;
        recs = realloc(recs, caprecs * sizeof *recs);
      }
      uint8_t *copy = malloc(h->size);
      memcpy(copy, h, h->size);
      recs[nrecs++] = (struct rec){slot, copy};
      if (h->type == OMPPROF_REC_MODULE)
        capture_module(copy);
    }
    r += h->size;
  }
  __atomic_store_n(&cons->read_pos, r, __ATOMIC_RELEASE);
}

static void drain_all(void)
{
  if (!unlinked && !keep_file && __atomic_load_n(&H->agent_state, __ATOMIC_ACQUIRE) >= OMPPROF_AGENT_MAPPED) {
    unlink(shm_path); /* as the JVM does once the agent has the mapping */
    unlinked = 1;
  }
  for (uint32_t i = 0; i < SLOTS; i++) {
    struct ompprof_slot_header *s = slot_at(i);
    uint32_t state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    uint8_t *rings = (uint8_t *)s + OMPPROF_SLOT_HEADER_SIZE;
    drain_ring(i, &s->sample_prod, &s->sample_cons, rings, SAMPLE_RING);
    drain_ring(i, &s->event_prod, &s->event_cons, rings + SAMPLE_RING, EVENT_RING);
    if (state == OMPPROF_SLOT_ENDED) {
      /* everything before ENDED was drained above: hand the slot back */
      __atomic_store_n(&s->thread_seq, 0, __ATOMIC_RELAXED);
      __atomic_store_n(&s->state, OMPPROF_SLOT_FREE, __ATOMIC_RELEASE);
      slots_freed++;
    }
  }
}

static void *drainer(void *arg)
{
  (void)arg;
  while (!__atomic_load_n(&child_done, __ATOMIC_ACQUIRE)) {
    drain_all();
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return NULL;
}

/* ---------- checks ---------- */

static int state_known(uint32_t s)
{
  return s <= 2 || (s >= 0x10 && s <= 0x16) || s == 0x20 || s == 0x21 || (s >= 0x40 && s <= 0x44) ||
         (s >= 0x80 && s <= 0x82) || (s >= 0x100 && s <= 0x102);
}

struct thread_info {
  uint32_t seq, os_tid, type;
  uint64_t lo, hi;
  uint64_t samples, ended;
  uint64_t weight_ns;
  uint64_t wall_from, wall_to; /* wall mode: the earliest time a sample stands for, the latest sample */
};

static const char *state_name(uint32_t s)
{
  switch (s) {
  case 0x000:
    return "work_serial";
  case 0x001:
    return "work_parallel";
  case 0x002:
    return "work_reduction";
  case 0x011:
    return "wait_barrier_implicit_parallel";
  case 0x012:
    return "wait_barrier_implicit_workshare";
  case 0x013:
    return "wait_barrier_implicit";
  case 0x014:
    return "wait_barrier_explicit";
  case 0x015:
    return "wait_barrier_implementation";
  case 0x020:
    return "wait_taskwait";
  case 0x021:
    return "wait_taskgroup";
  case 0x041:
    return "wait_lock";
  case 0x042:
    return "wait_critical";
  case 0x043:
    return "wait_atomic";
  case 0x100:
    return "idle";
  case 0x101:
    return "overhead";
  case 0x102:
    return "undefined";
  default:
    return "other";
  }
}

/* The creations in a packed task batch (or the regions in a packed region
 * batch: head is its payload's size, and its entries have a third varint),
 * or -1 if its size or its entries break the wire header's rules (ids must
 * grow, the bytes hold exactly count). */
static long packed_entries(const struct ompprof_record_header *h, uint32_t head)
{
  const struct ompprof_task_batch_packed *b = (const void *)(h + 1);
  int fields = head == sizeof *b ? 2 : 3;
  if (h->size < 16 + head || b->count == 0 || b->count > OMPPROF_MAX_TASK_BATCH ||
      h->size != ((16 + head + b->bytes + 7) & ~7ull))
    return -1;
  const uint8_t *in = (const uint8_t *)b + head;
  uint32_t at = 0;
  for (uint32_t i = 0; i < b->count; i++) {
    uint64_t code = 0;
    for (int field = 0; field < fields; field++) {
      uint64_t v = 0;
      int shift = 0;
      uint8_t byte;
      do {
        if (at >= b->bytes || shift > 63)
          return -1;
        byte = in[at++];
        v |= (uint64_t)(byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      if (field == 0) {
        if ((v >> 3) == 0)
          return -1; /* ids must grow */
        code = v & 7;
      }
      if (field == 1 && code == OMPPROF_PACKED_SHAPES)
        at += 8; /* a new shape, before a region's end */
    }
  }
  return at == b->bytes ? (long)b->count : -1;
}

static int analyze(int expect_threads, uint32_t mode, uint32_t rate, int status, const char *prog)
{
  uint64_t period = 1000000000ull / rate;
  struct thread_info th[64];
  int nth = 0;
  uint64_t count[OMPPROF_REC_TYPES] = {0};
  uint64_t batched = 0, regions_batched = 0, perf_samples = 0;
  uint64_t state_count[0x200] = {0};
  uint64_t fd_held = 0, agent_end_threads = 0, agent_end_timers_failed = 0;
  uint64_t callbacks = 0, with_stack = 0, truncated = 0, parallel_ids_in_samples = 0;
  uint64_t stack_bytes_total = 0;
  uint64_t frames_total = 0;
  int have_main = 0, have_libomp = 0, have_libc = 0, have_vdso = 0, have_agent = 0;
  uint64_t agent_lo = 0, agent_hi = 0;
  uint64_t max_parallel_id = 0;
  int pb_ok = 0;

  /* pass 1: threads and modules */
  for (size_t i = 0; i < nrecs; i++) {
    const struct ompprof_record_header *h = (const void *)recs[i].bytes;
    count[h->type]++;
    if (h->type == OMPPROF_REC_THREAD_BEGIN) {
      const struct ompprof_thread_begin *b = (const void *)(h + 1);
      if (nth < 64)
        th[nth++] =
            (struct thread_info){h->thread_seq, b->os_tid, b->thread_type, b->stack_lo, b->stack_hi, 0, 0, 0, 0, 0};
      if (!b->stack_hi || b->stack_lo >= b->stack_hi)
        fail("thread %u: no stack bounds", h->thread_seq);
    } else if (h->type == OMPPROF_REC_MODULE) {
      const struct ompprof_module *m = (const void *)(h + 1);
      const char *path = (const char *)(m + 1) + m->segment_count * sizeof(struct ompprof_segment);
      char buf[4097];
      uint32_t n = m->path_len < 4096 ? m->path_len : 4096;
      memcpy(buf, path, n);
      buf[n] = 0;
      uint64_t want = 16 + sizeof *m + m->segment_count * sizeof(struct ompprof_segment) + m->path_len + m->image_len;
      if (h->size != ((want + 7) & ~7ull))
        fail("module %s: record size %u, expected %" PRIu64, buf, h->size, (want + 7) & ~7ull);
      if (m->flags & OMPPROF_MOD_FD_HELD)
        fd_held++;
      size_t plen = strlen(prog);
      if ((m->flags & OMPPROF_MOD_MAIN) && n >= plen && !strcmp(buf + n - plen, prog) &&
          (m->flags & OMPPROF_MOD_FD_HELD))
        have_main = 1;
      if (strstr(buf, "libomp") && (m->flags & OMPPROF_MOD_FD_HELD) && m->build_id_len)
        have_libomp = 1;
      if (strstr(buf, "libc.so") && (m->flags & OMPPROF_MOD_FD_HELD) && m->build_id_len)
        have_libc = 1;
      if ((m->flags & OMPPROF_MOD_VDSO) && m->image_len >= 4 && !memcmp(path + m->path_len, "\177ELF", 4))
        have_vdso = 1;
      if (m->flags & OMPPROF_MOD_AGENT) {
        have_agent = 1;
        const struct ompprof_segment *sg = (const void *)(m + 1);
        for (uint32_t k = 0; k < m->segment_count; k++)
          if (sg[k].flags & 1 /* PF_X */) {
            agent_lo = m->load_bias + sg[k].vaddr;
            agent_hi = agent_lo + sg[k].memsz;
          }
      }
    } else if (h->type == OMPPROF_REC_TASK_BATCH_PACKED) {
      long n = packed_entries(h, sizeof(struct ompprof_task_batch_packed));
      if (n < 0)
        fail("malformed packed task batch of %u bytes", h->size);
      else
        batched += (uint64_t)n;
    } else if (h->type == OMPPROF_REC_REGION_BATCH_PACKED) {
      long n = packed_entries(h, sizeof(struct ompprof_region_batch_packed));
      if (n < 0)
        fail("malformed packed region batch of %u bytes", h->size);
      else
        regions_batched += (uint64_t)n;
    } else if (h->type == OMPPROF_REC_AGENT_INFO) {
      const struct ompprof_agent_info *a = (const void *)(h + 1);
      callbacks = a->callbacks_registered;
      if (a->sample_period_ns != period || a->rate_hz != rate || a->stack_bytes != STACK_BYTES ||
          a->pid != (uint32_t)child)
        fail("AGENT_INFO disagrees with the region header");
    } else if (h->type == OMPPROF_REC_AGENT_END) {
      const struct ompprof_agent_end *e = (const void *)(h + 1);
      agent_end_threads = e->threads_seen;
      agent_end_timers_failed = e->timers_failed;
    }
  }

  /* pass 2: samples and context records */
  for (size_t i = 0; i < nrecs; i++) {
    const struct ompprof_record_header *h = (const void *)recs[i].bytes;
    struct thread_info *t = NULL;
    for (int k = 0; k < nth; k++)
      if (th[k].seq == h->thread_seq)
        t = &th[k];
    if (h->type == OMPPROF_REC_THREAD_END && t)
      t->ended++;
    if (h->type == OMPPROF_REC_PARALLEL_BEGIN) {
      const struct ompprof_parallel_begin *b = (const void *)(h + 1);
      if (b->parallel_id > max_parallel_id)
        max_parallel_id = b->parallel_id;
      /* the context starts in the agent's callback: the first walked frame, or the snapshot's registers */
      const struct ompprof_frame *f = (const void *)(b + 1);
      uint64_t first = b->ctx.frame_count ? f[0].pc : b->ctx.rip;
      if (b->parallel_id && (b->ctx.stack_len || b->ctx.frame_count) && first >= agent_lo && first < agent_hi &&
          h->size ==
              16 + sizeof *b + b->ctx.frame_count * sizeof(struct ompprof_frame) + ((b->ctx.stack_len + 7) & ~7u))
        pb_ok++;
    }
    if (h->type != OMPPROF_REC_SAMPLE)
      continue;
    const struct ompprof_sample *s = (const void *)(h + 1);
    uint64_t want = 16 + sizeof *s + s->task_levels * sizeof(struct ompprof_task_level) +
                    s->parallel_levels * sizeof(struct ompprof_parallel_level) +
                    s->ctx.frame_count * sizeof(struct ompprof_frame) + ((s->ctx.stack_len + 7) & ~7u) +
                    (s->flags & OMPPROF_SAMPLE_RBX ? OMPPROF_RBX_BYTES : 0);
    if ((s->flags & OMPPROF_SAMPLE_UPPER) && want + sizeof(struct ompprof_upper_window) <= h->size) {
      const struct ompprof_upper_window *w = (const void *)((const uint8_t *)h + want);
      want += sizeof *w + ((w->len + 7) & ~7u);
    }
    if (h->size != want) {
      fail("sample size %u, expected %" PRIu64, h->size, want);
      continue;
    }
    if (!t) {
      fail("sample from thread %u without THREAD_BEGIN", h->thread_seq);
      continue;
    }
    t->samples++;
    t->weight_ns += s->weight_ns;
    if (!(s->flags & OMPPROF_SAMPLE_OMPT_READY) || (s->flags & OMPPROF_SAMPLE_UNKNOWN_THREAD))
      fail("sample flags 0x%x", s->flags);
    if (!state_known(s->state))
      fail("unknown state 0x%x", s->state);
    else
      state_count[s->state]++;
    if (s->flags & OMPPROF_SAMPLE_PERF) {
      perf_samples++;
      /* a perf event's sample weighs the CPU time counted since the previous one */
      if (H->mode != OMPPROF_MODE_CPU || s->weight_ns == 0 || s->weight_ns > 1000000000ull)
        fail("perf sample in mode %u weighing %" PRIu64 " ns", H->mode, s->weight_ns);
    } else if (H->mode == OMPPROF_MODE_WALL) {
      /* a sample weighs the wall time since the thread's previous one, whoever took it (its
       * cpu-clock event, the sampler from outside, the sampler's signal), up to its time or, for the
       * sampler's signal, up to the tick that sent it: together they tile the thread's time but for
       * the ends, checked per thread below */
      if (s->weight_ns > 1000000000ull || s->weight_ns > s->time_ns)
        fail("wall sample weighing %" PRIu64 " ns", s->weight_ns);
      else if (s->weight_ns) {
        uint64_t from = s->time_ns - s->weight_ns;
        t->wall_from = t->wall_from && t->wall_from < from ? t->wall_from : from;
        t->wall_to = t->wall_to > s->time_ns ? t->wall_to : s->time_ns;
      }
    } else if (s->weight_ns < period || s->weight_ns % period) {
      fail("weight %" PRIu64 " not a multiple of the period", s->weight_ns);
    }
    if (s->os_tid != t->os_tid)
      fail("sample tid %u, thread's %u", s->os_tid, t->os_tid);
    if (s->ctx.stack_len > STACK_BYTES || s->task_levels > OMPPROF_MAX_LEVELS ||
        s->parallel_levels > OMPPROF_MAX_LEVELS || s->ctx.frame_count > OMPPROF_MAX_WALK_FRAMES ||
        (s->ctx.walk_stop & 0xffu) > OMPPROF_WALK_TASK_EXIT)
      fail("sample bounds");
    frames_total += s->ctx.frame_count;
    if (s->ctx.stack_len) {
      with_stack++;
      stack_bytes_total += s->ctx.stack_len;
      if (s->ctx.rsp < t->lo || s->ctx.rsp + s->ctx.stack_len > t->hi)
        fail("snapshot outside the thread's stack");
    }
    if (s->ctx.ctx_flags & OMPPROF_CTX_TRUNCATED)
      truncated++;
    if (s->omp_thread_num < -1 || s->omp_thread_num >= expect_threads)
      fail("omp_thread_num %d", s->omp_thread_num);
    const struct ompprof_task_level *tl = (const void *)(s + 1);
    if (s->task_levels && tl[0].parallel_id)
      parallel_ids_in_samples++;
  }

  /* a signal's delivery after its tick (a few microseconds on a quiet machine) is the most the tiling seen from the
   * samples' times can be off by at either end */
  for (int k = 0; k < nth && H->mode == OMPPROF_MODE_WALL; k++)
    if (th[k].weight_ns > th[k].wall_to - th[k].wall_from + WALL_ENDS_NS ||
        th[k].weight_ns + WALL_ENDS_NS < th[k].wall_to - th[k].wall_from)
      fail("thread %u: wall samples weigh %" PRIu64 " ns, not the %" PRIu64 " ns they span", th[k].seq, th[k].weight_ns,
           th[k].wall_to - th[k].wall_from);

  uint64_t samples = count[OMPPROF_REC_SAMPLE];
  printf("walked frames: %" PRIu64 " (%.1f a sample)\n", frames_total,
         samples ? (double)frames_total / (double)samples : 0.0);
  printf("records: %zu (%" PRIu64 " samples, %" PRIu64 " with a stack snapshot of %" PRIu64
         " bytes on average, %" PRIu64 " truncated), slots freed %d\n",
         nrecs, samples, with_stack, with_stack ? stack_bytes_total / with_stack : 0, truncated, slots_freed);
  printf("events:");
  static const char *names[] = {"pad",
                                "sample",
                                "thread_begin",
                                "thread_end",
                                "parallel_begin",
                                "parallel_end",
                                "implicit_task",
                                "task_create",
                                "task_schedule",
                                "sync_region",
                                "mutex",
                                "control_tool",
                                "module",
                                "module_unload",
                                "agent_info",
                                "agent_end",
                                "work",
                                "masked",
                                "task_batch",
                                "device",
                                "target",
                                "target_submit",
                                "target_data_op",
                                "device_trace",
                                "device_clock",
                                "task_batch_packed",
                                "mpi",
                                "mutex_site",
                                "region_batch_packed"};
  _Static_assert(sizeof names / sizeof names[0] == OMPPROF_REC_TYPES, "a name per record type");
  for (int k = 2; k < OMPPROF_REC_TYPES; k++)
    if (count[k])
      printf(" %s=%" PRIu64, names[k], count[k]);
  printf("\nstates:");
  for (int k = 0; k < 0x200; k++)
    if (state_count[k])
      printf(" %s=%" PRIu64, state_name((uint32_t)k), state_count[k]);
  printf("\nthreads:");
  for (int k = 0; k < nth; k++)
    printf(" #%u(tid %u, type %u, %" PRIu64 " samples weighing %.0f ms)", th[k].seq, th[k].os_tid, th[k].type,
           th[k].samples, (double)th[k].weight_ns / 1e6);
  printf("\n");
  if (mode == OMPPROF_MODE_CPU)
    printf("cpu clock: %" PRIu64 " samples from perf events\n", perf_samples);

  /* handler cost, as measured by the agent */
  uint64_t calls = 0, ns = 0, hist[OMPPROF_HIST_BUCKETS] = {0}, reentered = 0;
  for (uint32_t i = 0; i < SLOTS; i++) {
    struct ompprof_slot_header *s = slot_at(i);
    calls += s->handler_calls;
    ns += s->handler_ns;
    reentered += s->reentered;
    for (uint32_t b = 0; b < OMPPROF_HIST_BUCKETS; b++)
      hist[b] += s->hist[b];
    /* every committed record must have reached us, and every handler call
     * must be a committed or a counted dropped sample */
    uint64_t in_slot = 0;
    for (size_t k = 0; k < nrecs; k++)
      if (recs[k].slot == i &&
          ((const struct ompprof_record_header *)(const void *)recs[k].bytes)->type == OMPPROF_REC_SAMPLE)
        in_slot++;
    if (in_slot != s->sample_prod.records || s->handler_calls != s->sample_prod.records + s->sample_prod.dropped)
      fail("slot %u: %" PRIu64 " samples drained, %" PRIu64 " committed, %" PRIu64 " dropped, %" PRIu64
           " handler calls",
           i, in_slot, s->sample_prod.records, s->sample_prod.dropped, s->handler_calls);
    if (s->sample_prod.dropped || s->event_prod.dropped)
      fail("slot %u dropped %" PRIu64 " samples, %" PRIu64 " events", i, s->sample_prod.dropped, s->event_prod.dropped);
  }
  uint64_t acc = 0, median = 0;
  for (uint32_t b = 0; b < OMPPROF_HIST_BUCKETS; b++) {
    acc += hist[b];
    if (acc * 2 >= calls) {
      median = b < OMPPROF_HIST_LINEAR ? (b + 1) * OMPPROF_HIST_LINEAR_NS : (4096ull << (b - OMPPROF_HIST_LINEAR + 1));
      break;
    }
  }
  printf("handler: %" PRIu64 " calls, mean %.0f ns, median <= %" PRIu64 " ns; disabled signals %" PRIu64
         "; modules announced %" PRIu64 ", captured %" PRIu64 " (%d opened through /proc)\n",
         calls, calls ? (double)ns / (double)calls : 0.0, median, (uint64_t)H->disabled_signals,
         (uint64_t)H->modules_announced, (uint64_t)H->modules_captured, modules_opened);

  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fail("program exit status 0x%x", status);
  if (H->agent_state != OMPPROF_AGENT_FINALIZED)
    fail("agent_state %u, expected FINALIZED", H->agent_state);
  if (H->agent_pid != (uint32_t)child)
    fail("agent_pid %u, child %d", H->agent_pid, (int)child);
  if (strncmp(H->runtime_version, "LLVM OMP", 8) != 0)
    fail("runtime_version '%s'", H->runtime_version);
  if (H->no_slot_drops)
    fail("no_slot_drops %" PRIu64, (uint64_t)H->no_slot_drops);
  if (ring_errors)
    fail("%d malformed rings", ring_errors);
  if (count[OMPPROF_REC_AGENT_INFO] != 1 || count[OMPPROF_REC_AGENT_END] != 1)
    fail("AGENT_INFO x%" PRIu64 ", AGENT_END x%" PRIu64, count[OMPPROF_REC_AGENT_INFO], count[OMPPROF_REC_AGENT_END]);
  if (agent_end_timers_failed)
    fail("%" PRIu64 " timers failed", agent_end_timers_failed);
  /* fork and exec children ran OpenMP too: none of their threads may appear */
  if (nth != expect_threads || agent_end_threads != (uint64_t)expect_threads)
    fail("%d THREAD_BEGINs, %" PRIu64 " threads seen, expected %d", nth, agent_end_threads, expect_threads);
  for (int k = 0; k < nth; k++) {
    if (th[k].samples == 0)
      fail("thread %u has no samples", th[k].seq);
    if (th[k].ended != 1)
      fail("thread %u has %" PRIu64 " THREAD_ENDs", th[k].seq, th[k].ended);
  }
  if (calls != samples)
    fail("handler_calls %" PRIu64 " but %" PRIu64 " samples", calls, samples);
  if (reentered)
    fail("handler re-entered %" PRIu64 " times", reentered);
  if (!(callbacks & (1ull << 1)) || !(callbacks & (1ull << 3)) || !(callbacks & (1ull << 7)))
    fail("callbacks_registered 0x%" PRIx64, callbacks);
  if (!pb_ok || max_parallel_id == 0)
    fail("no well-formed PARALLEL_BEGIN captured inside the agent");
  if (!parallel_ids_in_samples)
    fail("no sample carries a parallel id");
  if (!count[OMPPROF_REC_IMPLICIT_TASK] || !count[OMPPROF_REC_TASK_CREATE] || !count[OMPPROF_REC_MUTEX] ||
      count[OMPPROF_REC_CONTROL_TOOL] != 3 || !count[OMPPROF_REC_PARALLEL_END])
    fail("missing event kinds");
  /* registered only for what the profile uses */
  if (count[OMPPROF_REC_SYNC_REGION] || count[OMPPROF_REC_WORK] || count[OMPPROF_REC_MASKED] ||
      count[OMPPROF_REC_TASK_SCHEDULE])
    fail("records of callbacks the profile does not use");
  /* 40 tasks from one site: the first carries its stack, the rest are packed */
  if (batched < 30 || count[OMPPROF_REC_TASK_BATCH])
    fail("%" PRIu64 " tasks in packed batches, %" PRIu64 " unpacked batches", batched, count[OMPPROF_REC_TASK_BATCH]);
  /* 20 regions from one loop: the first carries its stack, the rest are packed with their ends */
  if (regions_batched < 15)
    fail("%" PRIu64 " regions in packed batches", regions_batched);
  /* waits are certain on the wall clock only: CPU-time samples come at the
   * kernel tick, a few dozen per thread here, and may all land in work */
  if (!state_count[0x001])
    fail("expected work_parallel samples");
  if (mode == OMPPROF_MODE_WALL && !(state_count[0x014] + state_count[0x011] + state_count[0x100]))
    fail("expected barrier or idle waits in wall-clock mode");
  if (!have_main || !have_libomp || !have_libc || !have_vdso || !have_agent)
    fail("modules: main %d libomp %d libc %d vdso %d agent %d", have_main, have_libomp, have_libc, have_vdso,
         have_agent);
  if (fd_held != H->modules_announced || H->modules_captured != H->modules_announced || modules_open_failed)
    fail("module handshake: %" PRIu64 " held, %" PRIu64 " announced, %" PRIu64 " captured, %d could not be opened",
         fd_held, (uint64_t)H->modules_announced, (uint64_t)H->modules_captured, modules_open_failed);
  return failures;
}

int main(int argc, char **argv)
{
  const char *agent = NULL;
  uint32_t mode = OMPPROF_MODE_WALL, rate = 1000;
  int threads = 2, i;
  for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
    if (!strcmp(argv[i], "--agent") && i + 1 < argc)
      agent = argv[++i];
    else if (!strcmp(argv[i], "--mode") && i + 1 < argc)
      mode = !strcmp(argv[++i], "cpu") ? OMPPROF_MODE_CPU : OMPPROF_MODE_WALL;
    else if (!strcmp(argv[i], "--rate") && i + 1 < argc)
      rate = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--slots") && i + 1 < argc)
      SLOTS = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--keep-file"))
      keep_file = 1;
    else {
      fprintf(stderr, "usage: shm_harness --agent LIB [--mode wall|cpu] [--rate HZ] "
                      "[--threads N] [--slots N] [--keep-file] -- PROGRAM ARGS...\n");
      return 2;
    }
  }
  if (!agent || i + 1 >= argc) {
    fprintf(stderr, "shm_harness: need --agent and a program\n");
    return 2;
  }
  char **prog = argv + i + 1;

  static char path[128];
  snprintf(path, sizeof path, "/dev/shm/ompprof-test-%d-%lx", (int)getpid(), (long)time(NULL));
  shm_path = path;
  slot_size = OMPPROF_SLOT_HEADER_SIZE + SAMPLE_RING + EVENT_RING;
  uint64_t total = OMPPROF_REGION_HEADER_SIZE + SLOTS * slot_size;
  int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0 || posix_fallocate(fd, 0, (off_t)total) != 0) {
    perror("shm_harness: creating the region");
    return 2;
  }
  base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (base == MAP_FAILED) {
    perror("mmap");
    return 2;
  }
  H = (void *)base;
  H->version = OMPPROF_WIRE_VERSION;
  H->header_size = OMPPROF_REGION_HEADER_SIZE;
  H->total_size = total;
  H->slot_count = SLOTS;
  H->slot_header_size = OMPPROF_SLOT_HEADER_SIZE;
  H->sample_ring_size = SAMPLE_RING;
  H->event_ring_size = EVENT_RING;
  H->mode = mode;
  H->rate_hz = rate;
  H->stack_bytes = STACK_BYTES;
  __atomic_store_n(&H->magic, OMPPROF_WIRE_MAGIC, __ATOMIC_RELEASE);

  char errpath[] = "/tmp/ompprof-harness-err-XXXXXX";
  int errfd = mkstemp(errpath);
  unlink(errpath);

  child = fork();
  if (child == 0) {
    dup2(errfd, 2);
    setenv("OMP_TOOL_LIBRARIES", agent, 1);
    setenv("OMP_TOOL", "enabled", 1);
    setenv("OMPPROF_SHM", path, 1);
    execvp(prog[0], prog);
    perror("exec");
    _exit(127);
  }
  pthread_t th;
  pthread_create(&th, NULL, drainer, NULL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  __atomic_store_n(&child_done, 1, __ATOMIC_RELEASE);
  pthread_join(th, NULL);
  drain_all();
  if (!unlinked)
    unlink(path);

  /* the program's stderr: pass it on, and the agent must have been silent */
  char buf[65536];
  ssize_t n = pread(errfd, buf, sizeof buf - 1, 0);
  buf[n > 0 ? n : 0] = 0;
  fputs(buf, stderr);
  if (strstr(buf, "ompprof agent:") && !getenv("OMPPROF_DEBUG"))
    fail("the agent printed to stderr");

  const char *slash = strrchr(prog[0], '/');
  int bad = analyze(threads, mode, rate, status, slash ? slash : prog[0]);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
