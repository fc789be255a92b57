/*
 * Unit tests of the task and region packing (src/task_pack.c) against a
 * decoder written here from the wire header's rules: known vectors (the Java
 * decoder's tests read the same bytes), the limits, and seeded random round
 * trips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "task_pack.h"

#include "check.h"

struct entry {
  uint64_t task, parent, shape, time; /* time: a region batch's end, else 0 */
};

static int get_varint(const uint8_t *in, uint32_t len, uint32_t *at, uint64_t *v)
{
  *v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*at >= len)
      return 0;
    uint8_t b = in[(*at)++];
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return 1;
  }
  return 0;
}

/* Returns the entries decoded, or -1 if the bytes do not hold exactly `count`. */
static int unpack_entries(const struct task_pack *b, struct entry *out, int timed)
{
  uint64_t task = b->base_task_id, parent = 0, time = b->base_time, recent[OMPPROF_PACKED_SHAPES] = {0};
  uint32_t at = 0;
  for (uint32_t i = 0; i < b->count; i++) {
    uint64_t a, z;
    if (!get_varint(b->bytes, b->len, &at, &a) || !get_varint(b->bytes, b->len, &at, &z))
      return -1;
    task += a >> 3;
    parent += (z >> 1) ^ (0 - (z & 1));
    uint32_t code = (uint32_t)(a & 7);
    uint64_t shape = 0;
    if (code == OMPPROF_PACKED_SHAPES) {
      if (at + 8 > b->len)
        return -1;
      for (int k = 0; k < 8; k++)
        shape |= (uint64_t)b->bytes[at++] << (8 * k);
      code = OMPPROF_PACKED_SHAPES - 1; /* the oldest goes */
    } else {
      shape = recent[code];
    }
    for (; code > 0; code--)
      recent[code] = recent[code - 1];
    recent[0] = shape;
    uint64_t t;
    if (timed && !get_varint(b->bytes, b->len, &at, &t))
      return -1;
    if (timed)
      time += (t >> 1) ^ (0 - (t & 1));
    out[i] = (struct entry){task, parent, shape, timed ? time : 0};
  }
  return at == b->len ? (int)b->count : -1;
}

static int unpack(const struct task_pack *b, struct entry *out)
{
  return unpack_entries(b, out, 0);
}

static void known_vector(void)
{
  static const uint8_t want[] = {0x0f, 0x0e, 0xaa, 0xaa, 0, 0, 0,    0,    0,    0,    0x17, 0x00, 0xbb, 0xbb,
                                 0,    0,    0,    0,    0, 0, 0x09, 0x00, 0xa8, 0x0c, 0x03, 0x0a, 0x00};
  struct task_pack b;
  task_pack_reset(&b);
  CHECK(task_pack_add(&b, 100, 7, 0xaaaa), "first");
  CHECK(task_pack_add(&b, 102, 7, 0xbbbb), "new shape");
  CHECK(task_pack_add(&b, 103, 7, 0xaaaa), "the shape before");
  CHECK(task_pack_add(&b, 300, 5, 0xaaaa), "the last shape");
  CHECK(task_pack_add(&b, 301, 5, 0), "an older one (the batch starts with zeros)");
  CHECK(b.base_task_id == 99 && b.count == 5, "base %llu count %u", (unsigned long long)b.base_task_id, b.count);
  CHECK(b.len == sizeof want && memcmp(b.bytes, want, sizeof want) == 0, "%u bytes", b.len);
}

/* Regions: a task entry and the end's step after it (RegionBatchPackingTest reads the same bytes). */
static void known_region_vector(void)
{
  static const uint8_t want[] = {0x0f, 0x0e, 0xaa, 0xaa, 0,    0,    0,    0,    0,
                                 0,    0x00, 0x08, 0x00, 0xd0, 0x0f, 0x08, 0x00, 0x03};
  struct task_pack b;
  task_pack_reset(&b);
  CHECK(task_pack_add_timed(&b, 100, 7, 0xaaaa, 5000), "first");
  CHECK(task_pack_add_timed(&b, 101, 7, 0xaaaa, 6000), "a region later");
  CHECK(task_pack_add_timed(&b, 102, 7, 0xaaaa, 5998), "an end before the last (a clock step back)");
  CHECK(b.base_task_id == 99 && b.base_time == 5000 && b.count == 3, "base %llu time %llu count %u",
        (unsigned long long)b.base_task_id, (unsigned long long)b.base_time, b.count);
  CHECK(b.len == sizeof want && memcmp(b.bytes, want, sizeof want) == 0, "%u bytes", b.len);
  struct entry e[3];
  CHECK(unpack_entries(&b, e, 1) == 3 && e[0].time == 5000 && e[1].time == 6000 && e[2].time == 5998 &&
            e[2].task == 102 && e[2].shape == 0xaaaa,
        "regions decode");
  /* the worst entry: a task's worst and a 10-byte step of the end */
  task_pack_reset(&b);
  task_pack_add_timed(&b, 1, 0, 0, 0);
  uint32_t before = b.len;
  CHECK(task_pack_add_timed(&b, 1ull << 61, 1ull << 63, 0x1234, 1ull << 63), "worst region entry");
  CHECK(b.len - before <= OMPPROF_MAX_PACKED_REGION_ENTRY, "%u bytes", b.len - before);
}

static void limits(void)
{
  struct task_pack b;
  task_pack_reset(&b);
  for (uint32_t i = 0; i < OMPPROF_MAX_TASK_BATCH; i++)
    CHECK(task_pack_add(&b, 10 + i, 1, 2), "entry %u", i);
  CHECK(!task_pack_add(&b, 1000, 1, 2) && b.count == OMPPROF_MAX_TASK_BATCH, "a full batch refuses");
  task_pack_reset(&b);
  CHECK(task_pack_add(&b, 50, 1, 2) && !task_pack_add(&b, 50, 1, 2) && !task_pack_add(&b, 49, 1, 2), "ids must grow");
  CHECK(!task_pack_add(&b, 50 + (1ull << 61), 1, 2) && b.count == 1 && b.len == 10,
        "a refusal leaves the batch as it was");
  task_pack_reset(&b);
  CHECK(task_pack_add(&b, 0, 0, 0) && task_pack_add(&b, UINT64_MAX / 8, UINT64_MAX, UINT64_MAX),
        "any first id, big steps");
  /* the worst entry: a 10-byte step, a 10-byte parent jump, a new shape */
  task_pack_reset(&b);
  task_pack_add(&b, 1, 0, 0);
  uint32_t before = b.len;
  CHECK(task_pack_add(&b, 1 + (1ull << 61) - 1, 1ull << 63, 0x1234), "worst entry");
  CHECK(b.len - before <= OMPPROF_MAX_PACKED_TASK_ENTRY, "%u bytes", b.len - before);
  struct entry e[2];
  CHECK(unpack(&b, e) == 2 && e[1].task == (1ull << 61) && e[1].parent == 1ull << 63 && e[1].shape == 0x1234,
        "worst decodes");
}

/* Random creations in the forms programs make: small steps, shared parents, a few shapes (with
 * `recursion`, three: a recursion's sites taking turns, the two-byte entry's case); timed (regions as
 * a thread ends them), with ends a few microseconds apart, now and then far. */
static void round_trips(int timed, int recursion)
{
  static const uint64_t shapes[] = {0, 0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777, 0x8888, UINT64_MAX};
  int bad = 0;
  uint64_t entries = 0, bytes = 0;
  for (int trial = 0; trial < 2000; trial++) {
    struct task_pack b;
    struct entry in[OMPPROF_MAX_TASK_BATCH], out[OMPPROF_MAX_TASK_BATCH];
    task_pack_reset(&b);
    uint64_t task = test_rng(), parent = test_rng(), time = timed ? test_rng() >> 1 : 0;
    uint32_t n = 1 + (uint32_t)(test_rng() % OMPPROF_MAX_TASK_BATCH);
    for (uint32_t i = 0; i < n; i++) {
      task += 1 + (test_rng() % 8 == 0 ? test_rng() % (1ull << 40) : test_rng() % 4);
      if (test_rng() % 4 == 0)
        parent = test_rng() % 2 ? test_rng() : parent + test_rng() % 100;
      if (timed)
        time += test_rng() % 8 == 0 ? test_rng() % (1ull << 40) : 500 + test_rng() % 3000;
      in[i] = (struct entry){task, parent, shapes[test_rng() % (recursion ? 3 : 10)], time};
      int added = timed ? task_pack_add_timed(&b, in[i].task, in[i].parent, in[i].shape, time)
                        : task_pack_add(&b, in[i].task, in[i].parent, in[i].shape);
      if (!added)
        n = i; /* a step past 2^61: this batch ends here */
    }
    entries += n;
    bytes += b.len;
    if (unpack_entries(&b, out, timed) != (int)n || memcmp(in, out, n * sizeof in[0]) != 0)
      bad++;
  }
  CHECK(bad == 0, "%d of 2000 %s batches did not round-trip", bad, timed ? "region" : "task");
  printf("task_pack: %.1f bytes per random %s%s\n", (double)bytes / (double)entries, timed ? "region" : "task",
         recursion ? " (a recursion's shapes)" : "");
}

int main(void)
{
  test_rng_seed(42);
  known_vector();
  known_region_vector();
  round_trips(1, 0);
  limits();
  round_trips(0, 0);
  round_trips(0, 1);
  round_trips(1, 1);
  printf("task_pack_test: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
