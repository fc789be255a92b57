/*
 * Ring writer. Positions are byte counts that only grow; the consumer (the
 * JVM) owns read_pos, we own write_pos and the statistics of ompprof_ring_prod.
 * Our own fields are read back with relaxed loads (single producer), the
 * consumer's read_pos with acquire so that we never overwrite bytes it is
 * still reading, and write_pos is published with release so that it sees the
 * record bytes before the position that covers them.
 */
#include "ring.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture.h"

static long raw_fallocate(int fd, uint64_t off, uint64_t len) /* signal-safe */
{
  register long r10 __asm__("r10") = (long)len; /* the fourth syscall argument */
  long r;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "0"((long)SYS_fallocate), "D"((long)fd), "S"(0L), "d"((long)off), "r"(r10)
                   : "rcx", "r11", "memory");
  return r;
}

static long raw_madvise(uint8_t *addr, uint64_t len, int advice) /* signal-safe */
{
  long r;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "0"((long)SYS_madvise), "D"((long)addr), "S"((long)len), "d"((long)advice)
                   : "rcx", "r11", "memory");
  return r;
}

/* Reserves the ring's bytes [from, to) in its file and maps them in one call:
 * page by page, the writer's first touches would fault 64 times a chunk
 * (5,000 faults a region-heavy second on two threads, each a VM exit's
 * worth). 0 if the kernel refused the reservation. Mapping is advice:
 * *mapped says whether it was taken (kernels before 5.14 refuse
 * MADV_POPULATE_WRITE, and the pages fault in as they are touched). */
static int ring_commit_pages(const struct ring *r, uint64_t from, uint64_t to, int *mapped) /* signal-safe */
{
  long rc;
  int tries = 0;
  do
    rc = raw_fallocate(r->fd, r->file_off + from, to - from);
  while (rc == -EINTR && ++tries < 8);
  if (rc != 0)
    return 0;
  *mapped = raw_madvise(r->data + from, to - from, MADV_POPULATE_WRITE) == 0;
  return 1;
}

/*
 * The region's pages are reserved as the writer first reaches them rather
 * than all at start: a program with 64 slots of 10 MiB rings commits only
 * what its threads write. Reserving (rather than touching a hole) is what
 * keeps a full /dev/shm from killing the program with SIGBUS: the record is
 * dropped instead. Everything below write position w is reserved, in whole
 * chunks, so only a write past w's chunk on the first lap asks the kernel.
 */
static int ring_reserve_pages(const struct ring *r, uint64_t w, uint64_t end) /* signal-safe */
{
  uint64_t from = (w + RING_RESERVE_CHUNK - 1) & ~(RING_RESERVE_CHUNK - 1);
  if (r->fd < 0 || w >= r->size || end <= from)
    return 1;
  uint64_t to = (end + RING_RESERVE_CHUNK - 1) & ~(RING_RESERVE_CHUNK - 1);
  if (to > r->size)
    to = r->size;
  if (to <= from)
    return 1; /* a record after a PAD: it starts the second lap */
  int mapped;
  return ring_commit_pages(r, from, to, &mapped);
}

void ring_prefault(const struct ring *r)
{
  uint64_t w = __atomic_load_n(&r->prod->write_pos, __ATOMIC_RELAXED);
  uint64_t from = (w & (r->size - 1)) & ~(RING_RESERVE_CHUNK - 1);
  uint64_t len = r->size - from < RING_RESERVE_CHUNK ? r->size - from : RING_RESERVE_CHUNK;
  uint8_t *start = r->data + from;
  int mapped;
  if (r->fd >= 0 && w < r->size) {
    if (!ring_commit_pages(r, from, from + len, &mapped))
      return; /* the region file is full: the writer drops its records */
  } else {
    mapped = raw_madvise(start, len, MADV_POPULATE_WRITE) == 0;
  }
  if (mapped)
    return;
  /* kernels before 5.14: touch every page with a write that changes nothing,
   * harmless even while the JVM reads the same bytes */
  long page = sysconf(_SC_PAGESIZE);
  for (uint64_t off = 0; off < len; off += (uint64_t)page)
    __atomic_fetch_add((uint64_t *)(void *)(start + off), 0, __ATOMIC_RELAXED);
}

void ring_count_drop(const struct ring *r, uint32_t need) /* signal-safe */
{
  struct ompprof_ring_prod *p = r->prod;
  __atomic_store_n(&p->dropped, __atomic_load_n(&p->dropped, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&p->dropped_bytes, __atomic_load_n(&p->dropped_bytes, __ATOMIC_RELAXED) + need, __ATOMIC_RELAXED);
}

int ring_reserve(const struct ring *r, uint32_t need, struct ring_res *res) /* signal-safe */
{
  uint64_t w = __atomic_load_n(&r->prod->write_pos, __ATOMIC_RELAXED);
  uint64_t rd = __atomic_load_n(&r->cons->read_pos, __ATOMIC_ACQUIRE);
  uint64_t mask = r->size - 1;
  uint64_t off = w & mask;
  uint64_t tail = r->size - off;
  uint64_t pad = need <= tail ? 0 : tail;
  uint64_t used = w - rd;

  /* `used > size` only happens if the consumer published garbage; refusing
   * to write is the only safe answer then. */
  if (need < RING_MIN_RECORD || (need & 7u) || need > r->size || used > r->size || used + pad + need > r->size ||
      !ring_reserve_pages(r, w, w + pad + need)) {
    ring_count_drop(r, need);
    return 0;
  }
  if (pad) {
    /* A PAD is read as size/type/version only, so 8 bytes suffice even when
     * the tail is too short for a full header. */
    struct ompprof_record_header *h = (struct ompprof_record_header *)(void *)(r->data + off);
    h->size = (uint32_t)pad;
    h->type = OMPPROF_REC_PAD;
    h->version = OMPPROF_REC_VERSION;
  }
  res->pos = w + pad;
  res->rec = r->data + (res->pos & mask);
  res->cap = need;
  return 1;
}

void ring_commit(const struct ring *r, const struct ring_res *res, uint32_t size) /* signal-safe */
{
  struct ompprof_ring_prod *p = r->prod;
  ((struct ompprof_record_header *)(void *)res->rec)->size = size;
  __atomic_store_n(&p->records, __atomic_load_n(&p->records, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&p->write_pos, res->pos + size, __ATOMIC_RELEASE);
}

int ring_write(const struct ring *r, const void *record, uint32_t size) /* signal-safe */
{
  struct ring_res res;
  if (!ring_reserve(r, size, &res))
    return 0;
  sig_copy(res.rec, record, size);
  ring_commit(r, &res, size);
  return 1;
}
