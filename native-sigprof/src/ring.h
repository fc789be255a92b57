/*
 * Single-producer byte rings inside the shared region (layout and memory
 * ordering contract: include/ompprof_wire.h, struct ompprof_ring_prod).
 *
 * The producer side never blocks: a record that does not fit is dropped and
 * counted, because the producer may be a signal handler that interrupted
 * arbitrary code, and because profiling must never stall the program.
 */
#ifndef OMPPROF_RING_H
#define OMPPROF_RING_H

#include <stdint.h>

#include "ompprof_wire.h"

struct ring {
  struct ompprof_ring_prod *prod;
  struct ompprof_ring_cons *cons;
  uint8_t *data;
  uint64_t size;     /* power of two */
  int fd;            /* the region file, to reserve pages in on the first lap; -1: memory needs none */
  uint64_t file_off; /* of data in that file */
};

/* Pages are reserved in the region file this much at a time, as the first lap reaches them. */
#define RING_RESERVE_CHUNK ((uint64_t)256u << 10)

/* A reservation: `cap` contiguous bytes at `rec`, to be published with
 * ring_commit. Reserve/commit exist so that large payloads (stack snapshots)
 * are copied once, straight into the shared memory. */
struct ring_res {
  uint8_t *rec;
  uint64_t pos; /* ring position of the record (after any PAD) */
  uint32_t cap;
};

#define RING_ALIGN8(n)  (((uint64_t)(n) + 7u) & ~(uint64_t)7u)
#define RING_MIN_RECORD ((uint32_t)sizeof(struct ompprof_record_header))

/* Reserves `need` bytes (a multiple of 8, >= 16). When the tail of the ring
 * is too short, a PAD record covering it is written first and the record
 * starts at offset 0; the free-space check includes that pad. Returns 0 and
 * counts the drop in prod->dropped/dropped_bytes when there is no room, in
 * the ring or, on its first lap, in the shared memory file system. */
int ring_reserve(const struct ring *r, uint32_t need, struct ring_res *res); /* signal-safe */

/* Publishes the first `size` bytes of a reservation (size <= cap, multiple
 * of 8). Sets the record header's size field, so callers cannot publish a
 * record whose header disagrees with the bytes consumed. */
void ring_commit(const struct ring *r, const struct ring_res *res, uint32_t size); /* signal-safe */

/* Counts a record the caller gave up on without trying to reserve it. */
/* Reserves the chunk the writer is in and maps it into the process, outside
 * the handler (which would otherwise take a fault per page on the first lap).
 * One chunk, not the ring: a 10 MiB slot took 10 ms to populate in a VM, on the
 * thread's first parallel region; the writer reserves the rest as it gets there. */
void ring_prefault(const struct ring *r);

void ring_count_drop(const struct ring *r, uint32_t need); /* signal-safe */

/* Copies a complete record (header included, size a multiple of 8). */
int ring_write(const struct ring *r, const void *record, uint32_t size); /* signal-safe */

#endif
