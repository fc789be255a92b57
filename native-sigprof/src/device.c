/*
 * Device activity: the OMPT device and target callbacks (host clock, on the
 * encountering thread) and, where a runtime offers it, the OMPT tracing
 * interface (device clock, on whatever thread completes a buffer). None of
 * this runs in the SIGPROF handler, but it writes into the same per-thread
 * event rings as the other callbacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_state.h"
#include "callbacks.h"
#include "capture.h"
#include "clock.h"
#include "device.h"
#include "modules.h"
#include "record.h"
#include "slots.h"
#include "thread_state.h"

#define MAX_DEVICES        64
#define TRACE_BUFFER_BYTES (256u * 1024u)

/* Tracing entry points of one device; all set or tracing is off for it. */
struct traced_device {
  ompt_device_t *device;
  ompt_get_device_time_t get_time;
  ompt_get_record_ompt_t get_record;
  ompt_advance_buffer_cursor_t advance;
  ompt_stop_trace_t stop;
};

static struct traced_device traced[MAX_DEVICES];

static uint64_t new_id(void)
{
  /* one counter for target and host-op ids: each is unique per recording */
  return __atomic_add_fetch(&ompprof_g.ids.next_device_op_id, 1, __ATOMIC_RELAXED);
}

static void emit(struct priv *p, uint16_t type, const void *body, uint32_t body_size)
{
  uint32_t size = (uint32_t)(sizeof(struct ompprof_record_header) + body_size);
  struct ring_res res;
  if (!record_reserve(&p->cb.event, type, size, p->thread_seq, &res))
    return;
  sig_copy(res.rec + sizeof(struct ompprof_record_header), body, body_size);
  record_commit(&p->cb.event, &res, size);
}

static void emit_clock(struct priv *p, int device_num)
{
  struct traced_device *t = &traced[device_num];
  uint64_t host = now_ns();
  struct ompprof_device_clock c = {host, t->get_time(t->device), device_num, 0};
  emit(p, OMPPROF_REC_DEVICE_CLOCK, &c, sizeof c);
}

static void on_buffer_request(int device_num, ompt_buffer_t **buffer, size_t *bytes)
{
  (void)device_num;
  *buffer = malloc(TRACE_BUFFER_BYTES);
  *bytes = *buffer ? TRACE_BUFFER_BYTES : 0;
}

/* One OMPT trace record as an entry, or 0 for kinds ompprof does not keep. */
static int trace_entry(const ompt_record_ompt_t *r, struct ompprof_device_trace_entry *e)
{
  *e = (struct ompprof_device_trace_entry){r->time, r->time, r->target_id, 0, 0, 0, 0};
  switch (r->type) {
  case ompt_callback_target:
  case ompt_callback_target_emi:
    e->kind = OMPPROF_TRACE_TARGET;
    e->optype = (uint32_t)r->record.target.endpoint;
    return 1;
  case ompt_callback_target_submit:
  case ompt_callback_target_submit_emi:
    e->kind = OMPPROF_TRACE_KERNEL;
    e->host_op_id = r->record.target_kernel.host_op_id;
    e->end_ns = r->record.target_kernel.end_time;
    return 1;
  case ompt_callback_target_data_op:
  case ompt_callback_target_data_op_emi:
    e->kind = OMPPROF_TRACE_DATA_OP;
    e->host_op_id = r->record.target_data_op.host_op_id;
    e->end_ns = r->record.target_data_op.end_time;
    e->bytes = r->record.target_data_op.bytes;
    e->optype = (uint32_t)r->record.target_data_op.optype;
    return 1;
  default:
    return 0;
  }
}

static void write_trace(struct priv *p, int device_num, struct ompprof_device_trace_entry *e, uint32_t n)
{
  struct ompprof_device_trace h = {now_ns(), device_num, n};
  uint32_t size = (uint32_t)(sizeof(struct ompprof_record_header) + sizeof h + n * sizeof *e);
  struct ring_res res;
  if (!record_reserve(&p->cb.event, OMPPROF_REC_DEVICE_TRACE, size, p->thread_seq, &res))
    return;
  uint8_t *out = res.rec + sizeof(struct ompprof_record_header);
  sig_copy(out, &h, sizeof h);
  sig_copy(out + sizeof h, e, n * sizeof *e);
  record_commit(&p->cb.event, &res, size);
}

/* Device records in device time, in batches of OMPPROF_MAX_DEVICE_TRACE,
 * with a clock pair per buffer so the JVM can fit the device clock. */
static void on_buffer_complete(int device_num, ompt_buffer_t *buffer, size_t bytes, ompt_buffer_cursor_t begin,
                               int buffer_owned)
{
  struct priv *p = device_num >= 0 && device_num < MAX_DEVICES ? priv_for_callback() : NULL;
  struct traced_device *t = p ? &traced[device_num] : NULL;
  if (t && t->get_record) {
    struct ompprof_device_trace_entry batch[OMPPROF_MAX_DEVICE_TRACE];
    uint32_t n = 0;
    ompt_buffer_cursor_t cur = begin;
    for (int more = bytes > 0; more;) {
      ompt_record_ompt_t *r = t->get_record(buffer, cur);
      if (!r)
        break;
      if (trace_entry(r, &batch[n]) && ++n == OMPPROF_MAX_DEVICE_TRACE) {
        write_trace(p, device_num, batch, n);
        n = 0;
      }
      more = t->advance(t->device, buffer, bytes, cur, &cur) != 0 ? 1 : 0;
    }
    if (n)
      write_trace(p, device_num, batch, n);
    emit_clock(p, device_num);
  }
  if (buffer_owned)
    free(buffer);
}

/* Starts OMPT tracing of the device if the runtime offers every entry point
 * (libomptarget 19 offers none: then the callbacks alone describe the
 * device's work, on the host clock). Returns 1 if tracing runs. */
static int start_tracing(int device_num, ompt_device_t *device, ompt_function_lookup_t lookup)
{
  if (!lookup || device_num < 0 || device_num >= MAX_DEVICES)
    return 0;
  ompt_start_trace_t start = (ompt_start_trace_t)lookup("ompt_start_trace");
  ompt_set_trace_ompt_t set = (ompt_set_trace_ompt_t)lookup("ompt_set_trace_ompt");
  struct traced_device t = {
      device,
      (ompt_get_device_time_t)lookup("ompt_get_device_time"),
      (ompt_get_record_ompt_t)lookup("ompt_get_record_ompt"),
      (ompt_advance_buffer_cursor_t)lookup("ompt_advance_buffer_cursor"),
      (ompt_stop_trace_t)lookup("ompt_stop_trace"),
  };
  if (!start || !set || !t.get_time || !t.get_record || !t.advance || !t.stop)
    return 0;
  traced[device_num] = t;
  set(device, 1, ompt_callback_target_emi);
  set(device, 1, ompt_callback_target_submit_emi);
  set(device, 1, ompt_callback_target_data_op_emi);
  if (!start(device, on_buffer_request, on_buffer_complete)) {
    traced[device_num] = (struct traced_device){0};
    return 0;
  }
  return 1;
}

static void on_device_initialize(int device_num, const char *type, ompt_device_t *device, ompt_function_lookup_t lookup,
                                 const char *documentation)
{
  (void)documentation;
  if (!agent_attached())
    return;
  struct priv *p = priv_for_callback();
  if (!p)
    return;
  struct ompprof_device d = {.time_ns = now_ns(), .device_num = device_num, .event = OMPPROF_DEVICE_INIT};
  if (type)
    strncpy(d.type, type, sizeof d.type - 1);
  if (start_tracing(device_num, device, lookup))
    d.flags |= OMPPROF_DEVICE_TRACING;
  emit(p, OMPPROF_REC_DEVICE, &d, sizeof d);
  if (d.flags & OMPPROF_DEVICE_TRACING)
    emit_clock(p, device_num);
}

static void on_device_finalize(int device_num)
{
  struct priv *p = priv_for_agent();
  if (!p)
    return;
  if (device_num >= 0 && device_num < MAX_DEVICES && traced[device_num].stop) {
    emit_clock(p, device_num);
    traced[device_num].stop(traced[device_num].device); /* flushes: buffers complete here */
    traced[device_num] = (struct traced_device){0};
  }
  struct ompprof_device d = {.time_ns = now_ns(), .device_num = device_num, .event = OMPPROF_DEVICE_FINALIZE};
  emit(p, OMPPROF_REC_DEVICE, &d, sizeof d);
}

/* Offload images for the host device are written to a temporary file,
 * dlopen'ed and deleted at exit: the rescan announces the new object while
 * its file is still there, so its image is secured like any deleted library. */
static void on_device_load(int device_num, const char *filename, int64_t offset_in_file, void *vma_in_file,
                           size_t bytes, void *host_addr, void *device_addr, uint64_t module_id)
{
  (void)filename, (void)offset_in_file, (void)vma_in_file;
  struct priv *p = priv_for_callback();
  if (!p)
    return;
  modules_rescan(p, 1);
  struct ompprof_device d = {.time_ns = now_ns(),
                             .module_id = module_id,
                             .host_addr = (uint64_t)(uintptr_t)host_addr,
                             .device_addr = (uint64_t)(uintptr_t)device_addr,
                             .bytes = bytes,
                             .device_num = device_num,
                             .event = OMPPROF_DEVICE_LOAD};
  emit(p, OMPPROF_REC_DEVICE, &d, sizeof d);
}

/* A device callback's common start: nothing when no recording is attached; a new id for the
 * operation at its begin (the runtime hands it back at the end); the thread's slot, or NULL. */
static struct priv *op_begin(ompt_scope_endpoint_t endpoint, uint64_t *id)
{
  if (!agent_attached())
    return NULL;
  if (endpoint == ompt_scope_begin && id)
    *id = new_id();
  return priv_for_callback();
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num, ompt_data_t *task_data,
                          ompt_data_t *target_task_data, ompt_data_t *target_data, const void *codeptr_ra)
{
  (void)target_task_data;
  struct ompprof_target b;
  CAPTURE_HERE(&b.ctx);
  struct priv *p = op_begin(endpoint, target_data ? &target_data->value : NULL);
  if (!p)
    return;
  b.time_ns = now_ns();
  b.target_id = target_data ? target_data->value : 0;
  b.task_id = task_data ? task_data->value : 0;
  callbacks_task_referenced(p, b.task_id);
  b.codeptr_ra = (uint64_t)(uintptr_t)codeptr_ra;
  b.device_num = device_num;
  b.kind = (uint32_t)kind;
  b.endpoint = (uint32_t)endpoint;
  b.pad = 0;
  b.enc_exit_frame = b.enc_enter_frame = 0;
  uint32_t n = 0;
  if (endpoint == ompt_scope_begin) {
    uint64_t task_id; /* the callback passes the task itself */
    callbacks_current_task(&task_id, &b.enc_exit_frame, &b.enc_enter_frame);
    /* the offload image may have been loaded just now, before device_load */
    modules_rescan(p, 0);
    n = snapshot_len(&b.ctx, p->sig.stack_lo, p->sig.stack_hi, ompprof_g.stack_bytes);
  }
  b.ctx.stack_len = n;
  uint32_t size = (uint32_t)(sizeof(struct ompprof_record_header) + sizeof b + RING_ALIGN8(n));
  struct ring_res res;
  if (!record_reserve(&p->cb.event, OMPPROF_REC_TARGET, size, p->thread_seq, &res))
    return;
  uint8_t *out = res.rec + sizeof(struct ompprof_record_header);
  sig_copy(out, &b, sizeof b);
  snapshot_copy(out + sizeof b, b.ctx.rsp, n);
  record_commit(&p->cb.event, &res, size);
}

static void on_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data, ompt_id_t *host_op_id,
                                 unsigned int requested_num_teams)
{
  struct priv *p = op_begin(endpoint, host_op_id);
  if (!p)
    return;
  struct ompprof_target_submit b = {now_ns(), target_data ? target_data->value : 0, host_op_id ? *host_op_id : 0,
                                    requested_num_teams, (uint32_t)endpoint};
  emit(p, OMPPROF_REC_TARGET_SUBMIT, &b, sizeof b);
}

static void on_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                                  ompt_data_t *target_data, ompt_id_t *host_op_id, ompt_target_data_op_t optype,
                                  void *src_addr, int src_device_num, void *dest_addr, int dest_device_num,
                                  size_t bytes, const void *codeptr_ra)
{
  (void)target_task_data;
  struct priv *p = op_begin(endpoint, host_op_id);
  if (!p)
    return;
  struct ompprof_target_data_op b = {now_ns(),
                                     target_data ? target_data->value : 0,
                                     host_op_id ? *host_op_id : 0,
                                     (uint64_t)(uintptr_t)src_addr,
                                     (uint64_t)(uintptr_t)dest_addr,
                                     bytes,
                                     (uint64_t)(uintptr_t)codeptr_ra,
                                     src_device_num,
                                     dest_device_num,
                                     (uint32_t)optype,
                                     (uint32_t)endpoint};
  emit(p, OMPPROF_REC_TARGET_DATA_OP, &b, sizeof b);
}

void device_register(ompt_set_callback_t set, uint64_t *always, int debug)
{
  static const struct {
    ompt_callbacks_t event;
    ompt_callback_t fn;
  } cbs[] = {
      {ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize},
      {ompt_callback_device_finalize, (ompt_callback_t)on_device_finalize},
      {ompt_callback_device_load, (ompt_callback_t)on_device_load},
      {ompt_callback_target_emi, (ompt_callback_t)on_target_emi},
      {ompt_callback_target_submit_emi, (ompt_callback_t)on_target_submit_emi},
      {ompt_callback_target_data_op_emi, (ompt_callback_t)on_target_data_op_emi},
  };
  for (size_t i = 0; i < sizeof cbs / sizeof cbs[0]; i++) {
    ompt_set_result_t r = set(cbs[i].event, cbs[i].fn);
    if (r == ompt_set_always)
      *always |= 1ull << cbs[i].event;
    if (debug && r != ompt_set_always)
      fprintf(stderr, "ompprof agent: device callback %d registered with result %d\n", (int)cbs[i].event, (int)r);
  }
}
