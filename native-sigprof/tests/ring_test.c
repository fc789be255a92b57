/*
 * Unit tests of the ring writer (src/ring.c) against an independent reader
 * written here from the wire header's rules, plus the histogram bucketing.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hist.h"
#include "ring.h"

#include "check.h"

#define GUARD 64u

struct tring {
  struct ompprof_ring_prod prod;
  struct ompprof_ring_cons cons;
  uint8_t *mem; /* data followed by GUARD canary bytes */
  struct ring r;
  uint64_t pads;
};

static void tr_init(struct tring *t, uint64_t size)
{
  memset(t, 0, sizeof *t);
  t->mem = aligned_alloc(64, size + GUARD);
  memset(t->mem, 0xab, size + GUARD);
  t->r = (struct ring){&t->prod, &t->cons, t->mem, size, -1, 0};
}

static void tr_free(struct tring *t)
{
  free(t->mem);
}

static int guard_intact(const struct tring *t)
{
  for (uint32_t i = 0; i < GUARD; i++)
    if (t->mem[t->r.size + i] != 0xab)
      return 0;
  return 1;
}

/* The reader, as the JVM does it: skip PADs (which may be only 8 bytes),
 * never read past write_pos, publish read_pos with release. Returns the
 * record size, 0 when empty, -1 on a malformed ring. */
static int tr_read(struct tring *t, uint8_t *out)
{
  uint64_t w = __atomic_load_n(&t->prod.write_pos, __ATOMIC_ACQUIRE);
  uint64_t r = t->cons.read_pos;
  while (r < w) {
    uint64_t off = r & (t->r.size - 1);
    const struct ompprof_record_header *h = (const void *)(t->mem + off);
    uint32_t size = h->size;
    if (size < 8 || size % 8 || off + size > t->r.size || r + size > w)
      return -1;
    if (h->type == OMPPROF_REC_PAD) {
      if (h->version != OMPPROF_REC_VERSION || off + size != t->r.size)
        return -1;
      t->pads++;
      r += size;
      continue;
    }
    if (size < 16)
      return -1;
    memcpy(out, h, size);
    __atomic_store_n(&t->cons.read_pos, r + size, __ATOMIC_RELEASE);
    return (int)size;
  }
  __atomic_store_n(&t->cons.read_pos, r, __ATOMIC_RELEASE);
  return 0;
}

static void fill_payload(uint8_t *rec, uint32_t size, uint32_t seq)
{
  struct ompprof_record_header *h = (void *)rec;
  h->size = size;
  h->type = OMPPROF_REC_SAMPLE;
  h->version = OMPPROF_REC_VERSION;
  h->thread_seq = seq;
  h->reserved = 0;
  for (uint32_t i = 16; i < size; i++)
    rec[i] = (uint8_t)(seq * 31u + i);
}

static int payload_ok(const uint8_t *rec, uint32_t size, uint32_t seq)
{
  const struct ompprof_record_header *h = (const void *)rec;
  if (h->size != size || h->thread_seq != seq || h->type != OMPPROF_REC_SAMPLE)
    return 0;
  for (uint32_t i = 16; i < size; i++)
    if (rec[i] != (uint8_t)(seq * 31u + i))
      return 0;
  return 1;
}

static int put(struct tring *t, uint32_t size, uint32_t seq)
{
  uint8_t buf[8192];
  fill_payload(buf, size, seq);
  return ring_write(&t->r, buf, size);
}

static void test_alignment(void)
{
  struct tring t;
  uint8_t out[8192];
  tr_init(&t, 4096);
  int misaligned = 0, bad = 0;
  for (uint32_t i = 0; i < 500; i++) {
    uint32_t size = 16 + 8 * (i % 40);
    struct ring_res res;
    if (!ring_reserve(&t.r, size, &res)) {
      bad++;
      continue;
    }
    if ((uintptr_t)(res.rec - t.mem) % 8 || res.pos % 8)
      misaligned++;
    fill_payload(res.rec, size, i);
    ring_commit(&t.r, &res, size);
    if (t.prod.write_pos % 8)
      misaligned++;
    if (tr_read(&t, out) != (int)size || !payload_ok(out, size, i))
      bad++;
  }
  CHECK(misaligned == 0, "%d misaligned", misaligned);
  CHECK(bad == 0, "%d bad records", bad);
  CHECK(t.prod.records == 500, "records %llu", (unsigned long long)t.prod.records);
  CHECK(t.pads > 0, "expected wrap-around pads");
  CHECK(guard_intact(&t), "wrote past the ring");
  tr_free(&t);
}

static void test_wrap_pad(void)
{
  struct tring t;
  uint8_t out[512];
  tr_init(&t, 256);
  /* fill to 240, drain, then a 32-byte record cannot fit in the 16-byte tail */
  CHECK(put(&t, 80, 1) && put(&t, 80, 2) && put(&t, 80, 3), "setup");
  while (tr_read(&t, out) > 0) {
  }
  CHECK(put(&t, 32, 4), "record after wrap");
  const struct ompprof_record_header *pad = (const void *)(t.mem + 240);
  CHECK(pad->type == OMPPROF_REC_PAD && pad->size == 16 && pad->version == OMPPROF_REC_VERSION, "pad type %u size %u",
        pad->type, pad->size);
  CHECK(t.prod.write_pos == 240 + 16 + 32, "write_pos %llu", (unsigned long long)t.prod.write_pos);
  CHECK(((const struct ompprof_record_header *)(const void *)t.mem)->thread_seq == 4, "record must start at offset 0");
  CHECK(tr_read(&t, out) == 32 && payload_ok(out, 32, 4), "read after wrap");
  CHECK(t.prod.records == 4, "pads are not records: %llu", (unsigned long long)t.prod.records);

  /* an 8-byte tail gets an 8-byte PAD: size/type/version and nothing else */
  tr_free(&t);
  tr_init(&t, 256);
  CHECK(put(&t, 232, 1) && put(&t, 16, 2), "setup 8");
  while (tr_read(&t, out) > 0) {
  }
  CHECK(t.prod.write_pos == 248, "at 248");
  CHECK(put(&t, 24, 3), "record after 8-byte pad");
  pad = (const void *)(t.mem + 248);
  CHECK(pad->type == OMPPROF_REC_PAD && pad->size == 8, "8-byte pad: type %u size %u", pad->type, pad->size);
  CHECK(guard_intact(&t), "an 8-byte pad must not write a full header past the end");
  CHECK(tr_read(&t, out) == 24 && payload_ok(out, 24, 3), "read after 8-byte pad");
  tr_free(&t);
}

static void test_full_drop(void)
{
  struct tring t;
  uint8_t out[512];
  tr_init(&t, 256);
  int ok = 1;
  for (uint32_t i = 0; i < 16; i++)
    ok &= put(&t, 16, i);
  CHECK(ok, "16 x 16 bytes fill a 256-byte ring exactly");
  uint64_t w = t.prod.write_pos;
  CHECK(!put(&t, 16, 99), "full ring must drop");
  CHECK(t.prod.dropped == 1 && t.prod.dropped_bytes == 16, "dropped %llu bytes %llu",
        (unsigned long long)t.prod.dropped, (unsigned long long)t.prod.dropped_bytes);
  CHECK(t.prod.write_pos == w, "a drop must not move write_pos");
  CHECK(tr_read(&t, out) == 16 && payload_ok(out, 16, 0), "oldest record intact");
  CHECK(put(&t, 16, 100), "room again after one read");
  CHECK(!put(&t, 16, 101), "full again");
  CHECK(t.prod.dropped == 2 && t.prod.dropped_bytes == 32, "drop counters accumulate");
  for (uint32_t i = 1; i < 16; i++)
    CHECK(tr_read(&t, out) == 16 && payload_ok(out, 16, i), "record %u", i);
  CHECK(tr_read(&t, out) == 16 && payload_ok(out, 16, 100), "record 100");
  CHECK(tr_read(&t, out) == 0, "empty");
  tr_free(&t);

  /* fits in the free space but not together with the pad the tail needs */
  tr_init(&t, 256);
  CHECK(put(&t, 200, 1), "setup");
  while (tr_read(&t, out) > 0) {
  }
  CHECK(put(&t, 48, 2), "48 at 200"); /* write 248, read 200: 208 free, 8-byte tail */
  CHECK(!put(&t, 208, 3), "208 + 8 pad > 208 free: must drop");
  CHECK(t.prod.write_pos == 248, "no pad written for a dropped record");
  CHECK(put(&t, 200, 4), "200 + 8 pad == 208 free: fits");
  CHECK(t.prod.write_pos == 248 + 8 + 200, "pad accounted");
  CHECK(tr_read(&t, out) == 48 && payload_ok(out, 48, 2), "48");
  CHECK(tr_read(&t, out) == 200 && payload_ok(out, 200, 4), "200 after pad");
  tr_free(&t);
}

static void test_reserve_commit(void)
{
  struct tring t;
  uint8_t out[512];
  tr_init(&t, 1024);
  struct ring_res res;
  CHECK(ring_reserve(&t.r, 256, &res), "reserve");
  CHECK(t.prod.write_pos == 0, "reserve publishes nothing");
  CHECK(tr_read(&t, out) == 0, "reader sees nothing before commit");
  fill_payload(res.rec, 48, 7);
  ring_commit(&t.r, &res, 48);
  CHECK(t.prod.write_pos == 48, "commit advances by the real size");
  CHECK(tr_read(&t, out) == 48 && payload_ok(out, 48, 7), "committed record");

  CHECK(!ring_reserve(&t.r, 12, &res), "size not a multiple of 8");
  CHECK(!ring_reserve(&t.r, 8, &res), "smaller than a header");
  CHECK(!ring_reserve(&t.r, 2048, &res), "larger than the ring");
  CHECK(t.prod.dropped == 3, "invalid sizes count as drops");
  /* a consumer that published nonsense must not make us overwrite data */
  t.cons.read_pos = t.prod.write_pos + 4096;
  CHECK(!ring_reserve(&t.r, 16, &res), "read_pos beyond write_pos");
  tr_free(&t);
}

static void test_random(void)
{
  struct tring t;
  static uint8_t out[8192];
  enum { N = 200000 };
  static uint32_t fifo_seq[N], fifo_size[N];
  uint32_t head = 0, tail = 0, seq = 0, attempts = 0, writes = 0, bad = 0;
  test_rng_seed(12345);
  tr_init(&t, 4096);
  while (attempts < N) {
    if (test_rng() % 3) {
      uint32_t size = 16 + 8 * (uint32_t)(test_rng() % 128);
      attempts++;
      if (put(&t, size, seq)) {
        fifo_seq[tail] = seq;
        fifo_size[tail++] = size;
        writes++;
      }
      seq++;
    } else {
      int n = (int)(test_rng() % 4);
      for (int k = 0; k < n; k++) {
        int got = tr_read(&t, out);
        if (got < 0) {
          bad++;
          break;
        }
        if (got == 0)
          break;
        if (head == tail || (uint32_t)got != fifo_size[head] || !payload_ok(out, (uint32_t)got, fifo_seq[head]))
          bad++;
        head++;
      }
    }
  }
  int got;
  while ((got = tr_read(&t, out)) > 0) {
    if (head == tail || (uint32_t)got != fifo_size[head] || !payload_ok(out, (uint32_t)got, fifo_seq[head]))
      bad++;
    head++;
  }
  CHECK(got == 0, "ring malformed");
  CHECK(bad == 0, "%u bad records", bad);
  CHECK(head == tail, "read %u of %u written", head, tail);
  CHECK(t.prod.records == writes && t.prod.records + t.prod.dropped == attempts,
        "records %llu dropped %llu attempts %u", (unsigned long long)t.prod.records, (unsigned long long)t.prod.dropped,
        attempts);
  CHECK(t.prod.dropped > 0 && t.pads > 0, "the mix should exercise drops (%llu) and pads (%llu)",
        (unsigned long long)t.prod.dropped, (unsigned long long)t.pads);
  CHECK(guard_intact(&t), "wrote past the ring");
  tr_free(&t);
}

/* Producer and consumer on two threads: the acquire/release pairing is what
 * makes the reader see complete records. */
struct xarg {
  struct tring *t;
  uint32_t n;
  uint32_t written;
};

static void *producer(void *arg)
{
  struct xarg *a = arg;
  uint64_t s = 777;
  for (uint32_t seq = 0; seq < a->n;) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    uint32_t size = 16 + 8 * (uint32_t)(s % 64);
    struct ring_res res;
    if (!ring_reserve(&a->t->r, size, &res))
      continue; /* full: retry the same seq (counts a drop) */
    fill_payload(res.rec, size, seq);
    ring_commit(&a->t->r, &res, size);
    seq++;
  }
  return NULL;
}

static void test_threads(void)
{
  struct tring t;
  static uint8_t out[8192];
  tr_init(&t, 16384);
  struct xarg a = {&t, 300000, 0};
  pthread_t th;
  pthread_create(&th, NULL, producer, &a);
  uint32_t next = 0, bad = 0;
  while (next < a.n) {
    int got = tr_read(&t, out);
    if (got < 0) {
      bad++;
      break;
    }
    if (got > 0) {
      if (!payload_ok(out, (uint32_t)got, next))
        bad++;
      next++;
    }
  }
  pthread_join(th, NULL);
  CHECK(bad == 0 && next == a.n, "bad %u, read %u of %u", bad, next, a.n);
  CHECK(t.prod.records == a.n, "records %llu", (unsigned long long)t.prod.records);
  tr_free(&t);
}

static void test_hist(void)
{
  CHECK(hist_bucket(0) == 0, "0");
  CHECK(hist_bucket(15) == 0, "15");
  CHECK(hist_bucket(16) == 1, "16");
  CHECK(hist_bucket(4095) == 255, "4095");
  CHECK(hist_bucket(4096) == 256, "4096");
  CHECK(hist_bucket(8191) == 256, "8191");
  CHECK(hist_bucket(8192) == 257, "8192");
  CHECK(hist_bucket((4096ull << 23)) == 279, "last bucket start");
  CHECK(hist_bucket(~0ull) == OMPPROF_HIST_BUCKETS - 1, "clamped");
}

/* Bytes the file system has given the file (what a reservation commits). */
static uint64_t file_bytes(int fd)
{
  struct stat st;
  return fstat(fd, &st) == 0 ? (uint64_t)st.st_blocks * 512u : 0;
}

static long minor_faults(void)
{
  struct rusage ru;
  return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_minflt : 0;
}

/* A ring over a file's mapping, `off` bytes in (the region file's layout).
 * Returns the mapping, off + size long. */
static uint8_t *file_ring(struct tring *t, int fd, uint64_t off, uint64_t size)
{
  uint8_t *map = mmap(NULL, off + size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(map != MAP_FAILED, "map");
  memset(t, 0, sizeof *t);
  t->mem = map + off;
  t->r = (struct ring){&t->prod, &t->cons, t->mem, size, fd, off};
  return map;
}

/* On the first lap the writer reserves the file's pages chunk by chunk as it
 * reaches them, never ahead; a reservation the kernel refuses drops the
 * record instead of letting a later store fault. */
static void test_first_lap_reserves_pages(void)
{
  const uint64_t size = 8 * RING_RESERVE_CHUNK, off = 4096;
  int fd = memfd_create("ring_test", MFD_CLOEXEC);
  CHECK(fd >= 0 && ftruncate(fd, (off_t)(off + size)) == 0, "memfd");
  struct tring t;
  uint8_t *map = file_ring(&t, fd, off, size);
  CHECK(file_bytes(fd) == 0, "nothing committed before the first write");
  CHECK(put(&t, 64, 1), "first record");
  CHECK(file_bytes(fd) == RING_RESERVE_CHUNK, "one chunk for it, %llu bytes", (unsigned long long)file_bytes(fd));
  uint8_t out[4096];
  uint32_t n = 0;
  /* the chunk is mapped when reserved: writing it through costs no page faults
   * (page by page it cost 64 a chunk, 5,000 a region-heavy second) */
  while (tr_read(&t, out) > 0) {
  }
  long faults = minor_faults();
  while (t.prod.write_pos + 4096 <= RING_RESERVE_CHUNK) {
    CHECK(put(&t, 4096, ++n), "record %u", n);
    while (tr_read(&t, out) > 0) {
    }
  }
  CHECK(minor_faults() - faults <= 2, "%ld page faults writing a reserved chunk", minor_faults() - faults);
  while (t.prod.write_pos + 4096 <= 3 * RING_RESERVE_CHUNK + 64) {
    CHECK(put(&t, 4096, ++n), "record %u", n);
    while (tr_read(&t, out) > 0) {
    }
  }
  CHECK(file_bytes(fd) == 4 * RING_RESERVE_CHUNK, "chunks up to the write position, %llu bytes",
        (unsigned long long)file_bytes(fd));
  while (t.prod.write_pos < 3 * size) { /* laps, with PADs at the end: nothing more to reserve */
    uint32_t len = 4096 - 8 * (n % 7);
    n++;
    int ok = put(&t, len, n);
    CHECK(ok, "record %u at %llu", n, (unsigned long long)t.prod.write_pos);
    if (!ok)
      break;
    while (tr_read(&t, out) > 0) {
    }
  }
  CHECK(t.prod.dropped == 0 && t.pads > 0, "no drops over %llu bytes, %llu pads", (unsigned long long)t.prod.write_pos,
        (unsigned long long)t.pads);
  CHECK(file_bytes(fd) == size, "the whole ring reserved once, %llu bytes", (unsigned long long)file_bytes(fd));
  munmap(map, off + size);
  close(fd);

  int pipefd[2];
  CHECK(pipe(pipefd) == 0, "pipe");
  uint8_t *mem = aligned_alloc(64, size);
  memset(&t, 0, sizeof t);
  t.mem = mem;
  t.r = (struct ring){&t.prod, &t.cons, mem, size, pipefd[0], 0}; /* fallocate on a pipe fails */
  CHECK(!put(&t, 64, 1), "a refused reservation drops the record");
  CHECK(t.prod.dropped == 1 && t.prod.write_pos == 0, "counted, nothing written");
  free(mem);
  close(pipefd[0]);
  close(pipefd[1]);
}

/* A claim prefaults the chunk its rings write next and nothing more: a whole
 * 10 MiB slot took 10 ms per thread, inside the program's first region. */
static void test_prefault_one_chunk(void)
{
  const uint64_t size = 8 * RING_RESERVE_CHUNK, off = 4096;
  int fd = memfd_create("ring_prefault", MFD_CLOEXEC);
  CHECK(fd >= 0 && ftruncate(fd, (off_t)(off + size)) == 0, "memfd");
  struct tring t;
  uint8_t *map = file_ring(&t, fd, off, size);
  ring_prefault(&t.r);
  CHECK(file_bytes(fd) == RING_RESERVE_CHUNK, "the first chunk, %llu bytes", (unsigned long long)file_bytes(fd));
  t.prod.write_pos = t.cons.read_pos = 5 * RING_RESERVE_CHUNK + 64; /* a slot claimed again mid-lap */
  ring_prefault(&t.r);
  CHECK(file_bytes(fd) == 2 * RING_RESERVE_CHUNK, "and the chunk at the write position, %llu bytes",
        (unsigned long long)file_bytes(fd));
  CHECK(put(&t, 64, 1) && file_bytes(fd) == 2 * RING_RESERVE_CHUNK, "whose first record needs no more");
  munmap(map, off + size);
  close(fd);

  /* a file that may not grow: the reservation is refused, and a store to the
   * hole would be SIGBUS (the test would die), as in a full /dev/shm */
  fd = memfd_create("ring_prefault_sealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  CHECK(fd >= 0 && ftruncate(fd, (off_t)off) == 0 && fcntl(fd, F_ADD_SEALS, F_SEAL_GROW) == 0, "sealed memfd");
  map = file_ring(&t, fd, off, size);
  ring_prefault(&t.r);
  CHECK(file_bytes(fd) == 0, "a refused reservation prefaults nothing, %llu bytes", (unsigned long long)file_bytes(fd));
  CHECK(!put(&t, 64, 1) && t.prod.dropped == 1, "and the first record is dropped, not stored");
  munmap(map, off + size);
  close(fd);
}

int main(void)
{
  test_alignment();
  test_wrap_pad();
  test_full_drop();
  test_reserve_commit();
  test_random();
  test_threads();
  test_first_lap_reserves_pages();
  test_prefault_one_chunk();
  test_hist();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
