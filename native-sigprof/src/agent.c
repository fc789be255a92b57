/*
 * Tool lifecycle: ompt_start_tool attaches to the JVM's shared region,
 * initialize connects to OMPT and starts profiling, finalize stops it and
 * lets the JVM secure the module files before the process goes away.
 *
 * Policy: only the first process that maps the region is profiled. An
 * exec'd child sees agent_pid already taken (or the file already unlinked by
 * the JVM) and stays silent; a fork child inherits the mapping and the
 * handler but is cut off by the atfork handler.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent_state.h"
#include "callbacks.h"
#include "clock.h"
#include "handler.h"
#include "launch_env.h"
#include "modules.h"
#include "mpi.h"
#include "record.h"
#include "slots.h"
#include "switch_watch.h"
#include "thread_state.h"
#include "timers.h"
#include "wall.h"

/* The wire header has no asserts of its own; the Java mirror depends on
 * these offsets, so a layout change must fail the build here. */
_Static_assert(sizeof(struct ompprof_record_header) == 16, "record header");
_Static_assert(offsetof(struct ompprof_region_header, agent_state) == 64, "region header");
_Static_assert(offsetof(struct ompprof_region_header, disabled_signals) == 120, "region header");
_Static_assert(offsetof(struct ompprof_region_header, runtime_version) == 128, "region header");
_Static_assert(sizeof(struct ompprof_region_header) <= OMPPROF_REGION_HEADER_SIZE, "region header");
_Static_assert(offsetof(struct ompprof_slot_header, state) == 256, "slot header");
_Static_assert(offsetof(struct ompprof_slot_header, hist) == 320, "slot header");
_Static_assert(sizeof(struct ompprof_slot_header) <= OMPPROF_SLOT_HEADER_SIZE, "slot header");
_Static_assert(sizeof(struct ompprof_sample) == 88, "sample");
_Static_assert(sizeof(struct ompprof_frame) == 16, "frame");
_Static_assert(sizeof(struct ompprof_context) == 40, "context");
_Static_assert(sizeof(struct ompprof_task_level) == 56, "task level");
_Static_assert(sizeof(struct ompprof_parallel_level) == 16, "parallel level");
_Static_assert(sizeof(struct ompprof_parallel_begin) == 104, "parallel begin");
_Static_assert(offsetof(struct ompprof_parallel_begin, ctx) + sizeof(struct ompprof_context) ==
                   sizeof(struct ompprof_parallel_begin),
               "context must end the record body");
_Static_assert(sizeof(struct ompprof_task_create) == 104, "task create");
_Static_assert(offsetof(struct ompprof_task_create, ctx) + sizeof(struct ompprof_context) ==
                   sizeof(struct ompprof_task_create),
               "context must end the record body");
_Static_assert(sizeof(struct ompprof_module) == 128, "module");
_Static_assert(sizeof(struct ompprof_segment) == 40, "segment");
_Static_assert(sizeof(struct ompprof_agent_info) == 48, "agent info");

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data);
static void tool_finalize(ompt_data_t *tool_data);

static ompt_start_tool_result_t start_result = {tool_initialize, tool_finalize, {0}};

/* The agent's file name, as the launcher puts it into LD_PRELOAD. */
#define AGENT_LIBRARY "libompprof.so"

static void fail_line(const char *what)
{
  fprintf(stderr, "ompprof agent: %s, profiling disabled\n", what);
}

static int is_pow2(uint64_t x)
{
  return x && !(x & (x - 1));
}

/* Returns NULL if the region is usable, else what is wrong with it. */
static const char *validate(const struct ompprof_region_header *h, uint64_t file_size, char *buf, size_t buflen)
{
  if (h->magic != OMPPROF_WIRE_MAGIC)
    return "bad magic in OMPPROF_SHM region";
  if (h->version != OMPPROF_WIRE_VERSION) {
    snprintf(buf, buflen, "wire version %u in OMPPROF_SHM region, agent speaks %u", h->version, OMPPROF_WIRE_VERSION);
    return buf;
  }
  if (h->header_size != OMPPROF_REGION_HEADER_SIZE || h->slot_header_size != OMPPROF_SLOT_HEADER_SIZE)
    return "unexpected header sizes in OMPPROF_SHM region";
  if (h->total_size != file_size) {
    snprintf(buf, buflen, "OMPPROF_SHM region total_size %llu but file has %llu bytes",
             (unsigned long long)h->total_size, (unsigned long long)file_size);
    return buf;
  }
  /* Ring sizes bounded so that record sizes and pads always fit uint32. */
  if (!is_pow2(h->sample_ring_size) || !is_pow2(h->event_ring_size) || h->sample_ring_size < 4096 ||
      h->event_ring_size < 4096 || h->sample_ring_size > (1ull << 31) || h->event_ring_size > (1ull << 31))
    return "OMPPROF_SHM ring sizes must be powers of two in [4 KiB, 2 GiB]";
  if (h->slot_count == 0 || h->slot_count > 65536)
    return "OMPPROF_SHM slot_count out of range";
  uint64_t slot = OMPPROF_SLOT_HEADER_SIZE + h->sample_ring_size + h->event_ring_size;
  if ((h->total_size - OMPPROF_REGION_HEADER_SIZE) / slot < h->slot_count)
    return "OMPPROF_SHM region too small for its slots";
  if (h->rate_hz == 0 || h->rate_hz > 1000000)
    return "OMPPROF_SHM rate_hz out of range";
  if (h->mode != OMPPROF_MODE_WALL && h->mode != OMPPROF_MODE_CPU)
    return "OMPPROF_SHM mode unknown";
  uint32_t sig = h->flags & 0xffu;
  if ((h->flags & ~(0xffu | OMPPROF_REGION_START_PAUSED | OMPPROF_REGION_CPU_TIMERS)) != 0 ||
      (sig != 0 && (sig == SIGKILL || sig == SIGSTOP || (int)sig > SIGRTMAX)))
    return "OMPPROF_SHM sampling signal unusable";
  if (h->stack_bytes > h->sample_ring_size / 4)
    return "OMPPROF_SHM stack_bytes too large for the sample ring";
  return NULL;
}

/* Maps the JVM's region and claims it for this process; 0 if there is none, or it is another's or unusable (said on
 * stderr). */
static int attach(void)
{
  struct agent *g = &ompprof_g;
  const char *path = getenv("OMPPROF_SHM");
  if (!path || !*path)
    return 0;

  char msg[512];
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    /* ENOENT is what an exec'd child sees once the JVM has unlinked the
     * region after our attach: silent, like any other non-profiled child. */
    if (errno != ENOENT) {
      snprintf(msg, sizeof msg, "cannot open OMPPROF_SHM %s: %s", path, strerror(errno));
      fail_line(msg);
    }
    return 0;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < OMPPROF_REGION_HEADER_SIZE) {
    close(fd);
    fail_line("OMPPROF_SHM region smaller than its header");
    return 0;
  }
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    snprintf(msg, sizeof msg, "cannot map OMPPROF_SHM %s: %s", path, strerror(errno));
    close(fd);
    fail_line(msg);
    return 0;
  }
  struct ompprof_region_header *h = map;
  const char *bad = validate(h, (uint64_t)st.st_size, msg, sizeof msg);
  if (bad) {
    fail_line(bad);
    munmap(map, (size_t)st.st_size);
    close(fd);
    return 0;
  }
  uint32_t expect = 0;
  if (!__atomic_compare_exchange_n(&h->agent_pid, &expect, (uint32_t)getpid(), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    munmap(map, (size_t)st.st_size); /* libomp dlcloses us after a NULL */
    close(fd);
    return 0;
  }

  g->hdr = h;
  g->base = map;
  g->shm_fd = fd;
  g->slot_count = h->slot_count;
  g->sample_ring_size = h->sample_ring_size;
  g->event_ring_size = h->event_ring_size;
  g->slot_size = OMPPROF_SLOT_HEADER_SIZE + h->sample_ring_size + h->event_ring_size;
  g->mode = h->mode;
  g->rate_hz = h->rate_hz;
  g->stack_bytes = h->stack_bytes;
  g->period_ns = 1000000000ull / h->rate_hz;
  if (h->flags & OMPPROF_REGION_START_PAUSED)
    g->gate |= GATE_PAUSED;
  g->signo = (h->flags & 0xffu) ? (int)(h->flags & 0xffu) : SIGPROF;
  g->cpu_timers_only = (h->flags & OMPPROF_REGION_CPU_TIMERS) != 0;
  const char *dbg = getenv("OMPPROF_DEBUG");
  g->debug = dbg && *dbg && strcmp(dbg, "0") != 0;
  const char *walk = getenv("OMPPROF_WALK");
  g->walk = !walk ? WALK_ON : strcmp(walk, "off") == 0 ? WALK_OFF : strcmp(walk, "check") == 0 ? WALK_CHECK : WALK_ON;
  const char *wall_cpu = getenv("OMPPROF_WALL_CPU");
  /* opt-in: better placed samples on saturated cores, but a sleeping program ran 2% longer (4 threads, 2 cores) */
  g->wall_cpu_clock = !g->cpu_timers_only && wall_cpu && strcmp(wall_cpu, "on") == 0;
  const char *switches = getenv("OMPPROF_CPU_SWITCHES");
  g->cpu_switch_limit = switches && *switches ? (uint32_t)strtoul(switches, NULL, 10) : SWITCH_LIMIT_DEFAULT;
  h->cpu_switch_limit = g->cpu_switch_limit;

  h->agent_start_ns = now_ns();
  g->pid = (uint32_t)getpid();
  __atomic_store_n(&g->attached, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&h->agent_state, OMPPROF_AGENT_MAPPED, __ATOMIC_RELEASE);
  return 1;
}

/* The runtime's name and version, for the JVM. */
static void note_runtime(unsigned omp_version, const char *runtime_version)
{
  struct ompprof_region_header *h = ompprof_g.hdr;
  ompprof_g.omp_version = omp_version;
  if (runtime_version) {
    size_t n = strnlen(runtime_version, sizeof h->runtime_version - 1);
    memcpy(h->runtime_version, runtime_version, n);
    h->runtime_version[n] = '\0';
  }
}

/* Preloaded by the launcher, the agent starts at the program's start (early_start); else libomp loads it
 * (OMP_TOOL_LIBRARIES) at its first construct and everything starts here. A preloaded agent's ompt_start_tool is
 * the one libomp calls, before the library list. */
__attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                                                 const char *runtime_version)
{
  if (ompprof_g.started_early) {
    if (!agent_attached())
      return NULL; /* a fork child */
  } else if (!attach()) {
    return NULL;
  }
  note_runtime(omp_version, runtime_version);
  return &start_result;
}

/* The child must never write into the region: its records would interleave
 * with the parent's in rings that are single-producer. libomp keeps calling
 * our callbacks (and finalize) in the child, so everything checks
 * agent_attached(). Prepare handlers run in reverse registration order, so
 * ours runs before libomp's and `forking` is set before any fork happens. */
static void atfork_prepare(void)
{
  __atomic_add_fetch(&ompprof_g.forking, 1, __ATOMIC_SEQ_CST);
}

static void atfork_parent(void)
{
  __atomic_sub_fetch(&ompprof_g.forking, 1, __ATOMIC_RELEASE);
}

static void atfork_child(void)
{
  timer_forget_in_child();
  __atomic_store_n(&ompprof_g.attached, 0, __ATOMIC_RELEASE);
  __atomic_or_fetch(&ompprof_g.gate, GATE_DISABLED, __ATOMIC_RELAXED);
  __atomic_store_n(&ompprof_g.forking, 0, __ATOMIC_RELEASE);
}

/* What sampling needs whatever the runtime does: the threads' private state, the module list, the handler, the wall
 * sampler and the unwind rows. Returns 0 if profiling cannot go on. */
static int sampling_start(void)
{
  struct agent *g = &ompprof_g;
  /* Fresh anonymous pages: zero without a memset, each touched only when its
   * slot is first claimed (64 slots are 3 MiB; clearing them took 2 ms, inside the
   * program's first parallel region). Page-aligned, so cache-line aligned. */
  size_t bytes = (size_t)g->slot_count * sizeof(struct priv);
  void *privs = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (privs == MAP_FAILED || modules_init() != 0) {
    fail_line("out of memory");
    return 0;
  }
  g->privs = privs;
  int installed = handler_install();
  if (installed < 0) {
    fail_line("cannot install the sampling signal's handler");
    return 0;
  }
  if (installed > 0) {
    /* Taking it over would silence the program's own handler: sample nothing instead, say so. */
    __atomic_store_n(&g->sampling_off, 1, __ATOMIC_RELEASE);
    __atomic_or_fetch(&g->hdr->signal_problems, OMPPROF_SIGNAL_TAKEN, __ATOMIC_RELAXED);
  }
  /* before the first thread's sampling is armed */
  if (g->mode == OMPPROF_MODE_WALL && !g->sampling_off)
    g->wall_sampler = wall_start();
  /* before the first timer is armed: a sample taken while no unwind rows exist yet can only
   * carry a stack slice, which the deep stacks this is for do not fit in */
  modules_build_unwind_tables();
  pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
  return 1;
}

/* The program set a handler of its own for the signal before its first OpenMP construct, over the one the agent
 * installed at its start: from now on nothing is sampled, as when the program's handler was there first (what it
 * got meanwhile is said as a replaced handler). */
static void stop_if_handler_replaced(void)
{
  struct agent *g = &ompprof_g;
  signal_check();
  if (!(__atomic_load_n(&g->hdr->signal_problems, __ATOMIC_RELAXED) & OMPPROF_SIGNAL_REPLACED))
    return;
  __atomic_store_n(&g->sampling_off, 1, __ATOMIC_RELEASE);
  struct priv *p = priv_for_agent();
  if (p)
    timer_disarm(p);
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
  (void)initial_device_num;
  (void)tool_data;
  struct agent *g = &ompprof_g;

  g->set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  g->get_state = (ompt_get_state_t)lookup("ompt_get_state");
  g->get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  g->get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  g->get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  if (!g->set_callback) {
    fail_line("OMPT runtime lacks ompt_set_callback");
    return 0;
  }
  if (g->started_early)
    stop_if_handler_replaced();
  else if (!sampling_start())
    return 0;

  /* The handler reads these as soon as it can run. */
  if (g->get_state && g->get_task_info && g->get_parallel_info)
    __atomic_store_n(&g->ompt_ready, 1, __ATOMIC_RELEASE);
  callbacks_register();

  struct priv *p = priv_for_callback();
  if (p) {
    struct {
      struct ompprof_record_header h;
      struct ompprof_agent_info b;
    } rec;
    memset(&rec, 0, sizeof rec);
    rec.b.time_ns = now_ns();
    rec.b.sample_period_ns = g->period_ns;
    rec.b.pid = (uint32_t)getpid();
    rec.b.ompt_version = g->omp_version;
    rec.b.mode = g->mode;
    rec.b.rate_hz = g->rate_hz;
    rec.b.stack_bytes = g->stack_bytes;
    rec.b.callbacks_registered = g->callbacks_always;
    record_write(&p->cb.event, OMPPROF_REC_AGENT_INFO, &rec, sizeof rec, p->thread_seq);
    modules_rescan(p, 1);
  }
  __atomic_store_n(&g->hdr->agent_state, OMPPROF_AGENT_OMPT, __ATOMIC_RELEASE);
  if (!g->started_early)
    mpi_connect(g->debug);
  modules_watch_exit();

  if (g->debug)
    fprintf(stderr,
            "ompprof agent: pid %d attached (%s), %u slots, sample ring %llu, event ring %llu, "
            "%s %u Hz, stack %u bytes, callbacks always 0x%llx, initialize slot %d, "
            "modules announced %llu%s\n",
            (int)getpid(), g->hdr->runtime_version, g->slot_count, (unsigned long long)g->sample_ring_size,
            (unsigned long long)g->event_ring_size, g->mode == OMPPROF_MODE_CPU ? "cpu" : "wall", g->rate_hz,
            g->stack_bytes, (unsigned long long)g->callbacks_always, p ? (int)p->index : -1,
            (unsigned long long)__atomic_load_n(&g->hdr->modules_announced, __ATOMIC_RELAXED),
            g->started_early ? ", sampling since the program's start" : "");
  return 1;
}

/* Whether the program links an OpenMP runtime. A process that does not (a script's shell, `numactl`, `env`) goes on
 * to exec the program it starts, in the same process: it leaves the region and LD_PRELOAD to it. */
static int openmp_program(void)
{
  return dlsym(RTLD_DEFAULT, "omp_get_max_threads") != NULL;
}

/*
 * The launcher preloads the agent (LD_PRELOAD) so that the program is sampled from its start: the serial code
 * before its first OpenMP construct (reading input, setting up) is often seconds, which an agent that libomp loads
 * at that construct never saw. Until the runtime's tool initialize, samples carry no OpenMP state and the JVM puts
 * them on the plain call path from main. The agent takes itself out of LD_PRELOAD, so that the program and its
 * children see the environment they were given; a process that links no OpenMP runtime leaves it there for the
 * program it execs, and starts nothing (a libomp it loads later starts the agent at ompt_start_tool). Loaded by
 * libomp instead (OMP_TOOL_LIBRARIES set by hand), the agent starts at ompt_start_tool.
 */
__attribute__((constructor)) static void early_start(void)
{
  struct agent *g = &ompprof_g;
  if (launch_is_launcher() || !getenv("OMPPROF_SHM") || !openmp_program() || !launch_leave_preload(AGENT_LIBRARY))
    return;
  g->started_early = 1;
  if (!attach())
    return;
  if (!sampling_start()) {
    __atomic_store_n(&g->attached, 0, __ATOMIC_RELEASE);
    return;
  }
  struct priv *p = priv_for_agent(); /* the main thread's slot */
  if (!p)
    return;
  modules_rescan(p, 1);
  mpi_connect(g->debug);
  /* armed last: a sample inside this constructor, under the loader's frames, is none of the program's */
  if (!(__atomic_load_n(&g->gate, __ATOMIC_RELAXED) & GATE_STOPPED))
    timer_arm(p);
}

static void tool_finalize(ompt_data_t *tool_data)
{
  (void)tool_data;
  struct agent *g = &ompprof_g;
  if (!agent_attached())
    return; /* fork child, or never attached */
  struct ompprof_region_header *h = g->hdr;
  uint64_t t0 = now_ns();

  struct priv *p = priv_for_agent();
  signal_check();
  modules_rescan(p, 0);
  if (p)
    timer_disarm(p);
  __atomic_or_fetch(&g->gate, GATE_DISABLED, __ATOMIC_RELAXED);
  wall_stop();
  /* After this no handler is inside a sample ring any more, so FINALIZED
   * below really means "no more records". */
  handler_quiesce();

  if (p) {
    callbacks_flush_batches(p, 1);
    struct {
      struct ompprof_record_header h;
      struct ompprof_agent_end b;
    } rec;
    rec.b.time_ns = now_ns();
    rec.b.timers_failed = __atomic_load_n(&g->timers_failed, __ATOMIC_RELAXED);
    rec.b.threads_seen = __atomic_load_n(&g->threads_seen, __ATOMIC_RELAXED);
    record_write(&p->cb.event, OMPPROF_REC_AGENT_END, &rec, sizeof rec, p->thread_seq);
  }
  slot_end_deferred();
  __atomic_store_n(&h->agent_state, OMPPROF_AGENT_FINALIZED, __ATOMIC_RELEASE);

  /* Files announced with a held fd may be deleted the moment we exit; give
   * the JVM a bounded moment to copy them. */
  uint64_t announced = __atomic_load_n(&h->modules_announced, __ATOMIC_ACQUIRE);
  int waited_ms = 0;
  while (__atomic_load_n(&h->modules_captured, __ATOMIC_ACQUIRE) < announced &&
         __atomic_load_n(&h->jvm_state, __ATOMIC_ACQUIRE) != OMPPROF_JVM_STOPPED && waited_ms < 2000) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
    waited_ms++;
  }
  if (g->debug)
    fprintf(stderr,
            "ompprof agent: finalized: threads %llu, timers failed %llu, modules %llu announced "
            "%llu captured (waited %d ms), no-slot drops %llu, disabled signals %llu, %.3f ms\n",
            (unsigned long long)__atomic_load_n(&g->threads_seen, __ATOMIC_RELAXED),
            (unsigned long long)__atomic_load_n(&g->timers_failed, __ATOMIC_RELAXED), (unsigned long long)announced,
            (unsigned long long)__atomic_load_n(&h->modules_captured, __ATOMIC_RELAXED), waited_ms,
            (unsigned long long)__atomic_load_n(&h->no_slot_drops, __ATOMIC_RELAXED),
            (unsigned long long)__atomic_load_n(&h->disabled_signals, __ATOMIC_RELAXED), (double)(now_ns() - t0) / 1e6);
}
