/*
 * The agent's OMPT tracing path (src/device.c) against a fake runtime: no
 * runtime on these machines offers ompt_start_trace (libomptarget 19 returns
 * NULL), so this test plays one. It creates the region as the JVM would,
 * starts the agent through ompt_start_tool/initialize, initializes one device
 * that offers tracing and one that does not, completes a trace buffer, and
 * reads the event ring back: device records, clock pairs and trace batches
 * must say exactly what the fake device traced; the untraced device must get
 * its initialize record and nothing else.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <omp-tools.h>

#include "ompprof_wire.h"

#include "check.h"

#define RING          (1u << 20)
#define SLOTS         2u
#define DEVICE_OFFSET 777000000000ull /* the fake device clock runs this far ahead */
#define TRACED        300u            /* records the fake device traces (3 batches) */

/* ---- the fake runtime ---- */

static ompt_callback_t callbacks[64];
static ompt_callback_buffer_request_t trace_request;
static ompt_callback_buffer_complete_t trace_complete;
static int trace_enabled[64], stops;
static int fake_device;

static uint64_t host_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t fn)
{
  callbacks[event] = fn;
  return ompt_set_always;
}

static ompt_interface_fn_t runtime_lookup(const char *name)
{
  return strcmp(name, "ompt_set_callback") == 0 ? (ompt_interface_fn_t)set_callback : NULL;
}

static int start_trace(ompt_device_t *d, ompt_callback_buffer_request_t req, ompt_callback_buffer_complete_t done)
{
  (void)d;
  trace_request = req;
  trace_complete = done;
  return 1;
}

static ompt_set_result_t set_trace_ompt(ompt_device_t *d, unsigned int enable, unsigned int etype)
{
  (void)d;
  if (etype < 64)
    trace_enabled[etype] = (int)enable;
  return ompt_set_always;
}

static ompt_device_time_t get_device_time(ompt_device_t *d)
{
  (void)d;
  return host_ns() + DEVICE_OFFSET;
}

static ompt_record_ompt_t *get_record(ompt_buffer_t *buffer, ompt_buffer_cursor_t cur)
{
  return (ompt_record_ompt_t *)((char *)buffer + cur);
}

static int advance(ompt_device_t *d, ompt_buffer_t *buffer, size_t size, ompt_buffer_cursor_t cur,
                   ompt_buffer_cursor_t *next)
{
  (void)d, (void)buffer;
  *next = cur + sizeof(ompt_record_ompt_t);
  return *next < size;
}

static int stop_trace(ompt_device_t *d)
{
  (void)d;
  stops++;
  return 1;
}

static ompt_interface_fn_t tracing_lookup(const char *name)
{
  static const struct {
    const char *name;
    ompt_interface_fn_t fn;
  } fns[] = {
      {"ompt_start_trace", (ompt_interface_fn_t)start_trace},
      {"ompt_set_trace_ompt", (ompt_interface_fn_t)set_trace_ompt},
      {"ompt_get_device_time", (ompt_interface_fn_t)get_device_time},
      {"ompt_get_record_ompt", (ompt_interface_fn_t)get_record},
      {"ompt_advance_buffer_cursor", (ompt_interface_fn_t)advance},
      {"ompt_stop_trace", (ompt_interface_fn_t)stop_trace},
  };
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (strcmp(fns[i].name, name) == 0)
      return fns[i].fn;
  return NULL;
}

static ompt_interface_fn_t no_tracing_lookup(const char *name)
{
  (void)name;
  return NULL;
}

/* Record i of the fake trace: kernels, transfers, and a kind the agent skips. */
static void fake_record(uint32_t i, uint64_t t0, ompt_record_ompt_t *r)
{
  memset(r, 0, sizeof *r);
  r->time = t0 + i * 1000u;
  r->target_id = 100 + i / 4;
  switch (i % 3) {
  case 0:
    r->type = ompt_callback_target_submit_emi;
    r->record.target_kernel.host_op_id = 5000 + i;
    r->record.target_kernel.end_time = r->time + 500;
    break;
  case 1:
    r->type = ompt_callback_target_data_op_emi;
    r->record.target_data_op.host_op_id = 5000 + i;
    r->record.target_data_op.optype = ompt_target_data_transfer_to_device;
    r->record.target_data_op.bytes = 4096u * i;
    r->record.target_data_op.end_time = r->time + 700;
    break;
  default:
    r->type = ompt_callback_parallel_begin;
    break;
  }
}

/* ---- the JVM's side: region and ring reader ---- */

static uint8_t *region;

static struct ompprof_region_header *create_region(char *path)
{
  uint64_t slot = OMPPROF_SLOT_HEADER_SIZE + 2ull * RING;
  uint64_t total = OMPPROF_REGION_HEADER_SIZE + SLOTS * slot;
  int fd = mkstemp(path);
  if (fd < 0 || ftruncate(fd, (off_t)total) != 0)
    return NULL;
  region = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (region == MAP_FAILED)
    return NULL;
  struct ompprof_region_header *h = (void *)region;
  h->version = OMPPROF_WIRE_VERSION;
  h->header_size = OMPPROF_REGION_HEADER_SIZE;
  h->total_size = total;
  h->slot_count = SLOTS;
  h->slot_header_size = OMPPROF_SLOT_HEADER_SIZE;
  h->sample_ring_size = RING;
  h->event_ring_size = RING;
  h->mode = OMPPROF_MODE_WALL;
  h->rate_hz = 1; /* the test is over long before the first sample */
  h->stack_bytes = 4096;
  h->magic = OMPPROF_WIRE_MAGIC;
  return h;
}

struct seen {
  int init_traced, init_untraced, finalize, other_clock;
  uint32_t clocks, batches, entries, kernels, transfers, bad_entries;
  uint64_t last_clock_host;
};

static void check_entry(const struct ompprof_device_trace_entry *e, uint64_t t0, struct seen *s)
{
  uint32_t i = (uint32_t)((e->start_ns - t0) / 1000u);
  int ok = e->start_ns == t0 + i * 1000u && e->target_id == 100 + i / 4 && e->host_op_id == 5000 + i;
  if (e->kind == OMPPROF_TRACE_KERNEL) {
    s->kernels++;
    ok = ok && i % 3 == 0 && e->end_ns == e->start_ns + 500 && e->bytes == 0;
  } else if (e->kind == OMPPROF_TRACE_DATA_OP) {
    s->transfers++;
    ok = ok && i % 3 == 1 && e->end_ns == e->start_ns + 700 && e->bytes == 4096u * i &&
         e->optype == ompt_target_data_transfer_to_device;
  } else {
    ok = 0;
  }
  if (!ok)
    s->bad_entries++;
}

static void read_events(uint32_t slot_index, uint64_t t0, struct seen *s)
{
  uint64_t slot = OMPPROF_SLOT_HEADER_SIZE + 2ull * RING;
  uint8_t *base = region + OMPPROF_REGION_HEADER_SIZE + slot_index * slot;
  struct ompprof_slot_header *sh = (void *)base;
  const uint8_t *data = base + OMPPROF_SLOT_HEADER_SIZE + RING;
  uint64_t end = __atomic_load_n(&sh->event_prod.write_pos, __ATOMIC_ACQUIRE);
  for (uint64_t pos = 0; pos < end;) {
    const struct ompprof_record_header *h = (const void *)(data + (pos & (RING - 1)));
    const uint8_t *body = (const uint8_t *)(h + 1);
    if (h->size == 0)
      break;
    pos += h->size;
    if (h->type == OMPPROF_REC_DEVICE) {
      const struct ompprof_device *d = (const void *)body;
      if (d->event == OMPPROF_DEVICE_INIT && d->device_num == 0)
        s->init_traced = (d->flags & OMPPROF_DEVICE_TRACING) && strcmp(d->type, "fake-gpu") == 0 ? 1 : -1;
      if (d->event == OMPPROF_DEVICE_INIT && d->device_num == 1)
        s->init_untraced = d->flags == 0 && strcmp(d->type, "no-trace") == 0 ? 1 : -1;
      if (d->event == OMPPROF_DEVICE_FINALIZE && d->device_num == 0)
        s->finalize++;
    } else if (h->type == OMPPROF_REC_DEVICE_CLOCK) {
      const struct ompprof_device_clock *c = (const void *)body;
      if (c->device_num != 0) {
        s->other_clock++;
        continue;
      }
      s->clocks++;
      /* the agent reads the host clock just before the device's */
      int64_t lag = (int64_t)(c->device_ns - DEVICE_OFFSET - c->host_ns);
      CHECK(lag >= 0 && lag < 1000000, "clock pair %llu/%llu: device read %lld ns after host",
            (unsigned long long)c->host_ns, (unsigned long long)c->device_ns, (long long)lag);
      CHECK(c->host_ns >= s->last_clock_host, "clock pairs in order");
      s->last_clock_host = c->host_ns;
    } else if (h->type == OMPPROF_REC_DEVICE_TRACE) {
      const struct ompprof_device_trace *t = (const void *)body;
      const struct ompprof_device_trace_entry *e = (const void *)(t + 1);
      CHECK(t->device_num == 0 && t->count >= 1 && t->count <= OMPPROF_MAX_DEVICE_TRACE, "batch of %u on %d", t->count,
            t->device_num);
      CHECK(h->size == sizeof *h + sizeof *t + t->count * sizeof *e, "trace record size %u for %u entries", h->size,
            t->count);
      s->batches++;
      s->entries += t->count;
      for (uint32_t i = 0; i < t->count; i++)
        check_entry(&e[i], t0, s);
    }
  }
}

/* ---- the agent, as libomp would drive it ---- */

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);

int main(void)
{
  char path[] = "/tmp/ompprof-device-test-XXXXXX";
  struct ompprof_region_header *h = create_region(path);
  if (!h) {
    perror("region");
    return 2;
  }
  setenv("OMPPROF_SHM", path, 1);
  ompt_start_tool_result_t *tool = ompt_start_tool(201611, "fake runtime");
  CHECK(tool != NULL, "agent attached");
  if (!tool)
    return 1;
  ompt_data_t tool_data = {0};
  CHECK(tool->initialize(runtime_lookup, 0, &tool_data) == 1, "initialize");

  ompt_callback_device_initialize_t init =
      (ompt_callback_device_initialize_t)callbacks[ompt_callback_device_initialize];
  ompt_callback_device_finalize_t fini = (ompt_callback_device_finalize_t)callbacks[ompt_callback_device_finalize];
  CHECK(init && fini && callbacks[ompt_callback_target_emi] && callbacks[ompt_callback_target_submit_emi] &&
            callbacks[ompt_callback_target_data_op_emi] && callbacks[ompt_callback_device_load],
        "device and target callbacks registered");
  if (!init || !fini)
    return 1;

  init(0, "fake-gpu", (ompt_device_t *)&fake_device, tracing_lookup, "");
  init(1, "no-trace", (ompt_device_t *)&fake_device, no_tracing_lookup, "");
  CHECK(trace_request && trace_complete, "tracing started on the device that offers it");
  CHECK(trace_enabled[ompt_callback_target_emi] && trace_enabled[ompt_callback_target_submit_emi] &&
            trace_enabled[ompt_callback_target_data_op_emi],
        "target, kernel and data-op records asked for");

  uint64_t t0 = host_ns() + DEVICE_OFFSET;
  ompt_buffer_t *buffer = NULL;
  size_t bytes = 0;
  trace_request(0, &buffer, &bytes);
  CHECK(buffer && bytes >= TRACED * sizeof(ompt_record_ompt_t), "buffer of %zu bytes", bytes);
  if (!buffer)
    return 1;
  for (uint32_t i = 0; i < TRACED; i++)
    fake_record(i, t0, (ompt_record_ompt_t *)buffer + i);
  trace_complete(0, buffer, TRACED * sizeof(ompt_record_ompt_t), 0, 1);
  fini(0);
  fini(1);
  CHECK(stops == 1, "tracing stopped once, at the traced device's finalize (%d)", stops);
  tool->finalize(&tool_data);

  struct seen s = {0};
  for (uint32_t i = 0; i < SLOTS; i++)
    read_events(i, t0, &s);
  uint32_t expect_kernels = (TRACED + 2) / 3, expect_transfers = (TRACED + 1) / 3;
  CHECK(s.init_traced == 1, "traced device's initialize record (%d)", s.init_traced);
  CHECK(s.init_untraced == 1, "untraced device's initialize record (%d)", s.init_untraced);
  CHECK(s.finalize == 1, "finalize record (%d)", s.finalize);
  CHECK(s.clocks == 3, "clock pairs at initialize, buffer completion and finalize (%u)", s.clocks);
  CHECK(s.other_clock == 0, "no clock pairs for the untraced device (%d)", s.other_clock);
  CHECK(s.kernels == expect_kernels && s.transfers == expect_transfers, "%u kernels, %u transfers (expected %u, %u)",
        s.kernels, s.transfers, expect_kernels, expect_transfers);
  CHECK(s.batches == (s.entries + OMPPROF_MAX_DEVICE_TRACE - 1) / OMPPROF_MAX_DEVICE_TRACE, "%u batches for %u entries",
        s.batches, s.entries);
  CHECK(s.bad_entries == 0, "%u entries differ from what the device traced", s.bad_entries);

  unlink(path);
  printf("device_test: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
