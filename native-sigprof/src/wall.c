/*
 * Wall mode without cutting the program's sleeps short. A signal that
 * reaches a thread blocked in nanosleep, poll, select, epoll_wait,
 * sem_timedwait... makes the call return EINTR whatever SA_RESTART says, so
 * in wall mode no wall-clock timer signals the threads. While a thread runs,
 * its own perf cpu-clock event samples it (the kernel signals it on its CPU,
 * at the period of CPU time it used: a thread never blocks in one of those
 * calls then). Besides, one sampler thread ticks at the period and, for each
 * registered thread, reads /proc/self/task/TID/syscall:
 *
 *  - "running" (running or runnable): left to its cpu-clock event; where the
 *    kernel allows none, the thread is signalled and its handler samples it
 *    as in the other modes (SIGPROF does not queue: one signal is in flight
 *    per thread);
 *  - blocked in a system call while its task runs user code: the thread is
 *    sampled from outside. The file gives sp and pc at the call; the stack is
 *    in our address space and is copied with process_vm_readv (a stack that
 *    went away is an error, not a fault); the file is read again after the
 *    copy and the sample dropped if the thread moved. The OpenMP part is the
 *    view the thread published at its last sample, implicit task begin, task
 *    switch or parallel end, or that a completion's resumed task had when it
 *    was suspended, checked against the live task frame in the runtime (a
 *    view made in a barrier or taskwait stands for the task once the frame
 *    shows it back in its own code: a sleep right after a construct is the
 *    program's);
 *  - blocked inside the runtime (barrier, idle, lock, taskwait: the task's
 *    enter frame is set or its exit frame cleared), waiting for a tracked
 *    mutex, or with no usable view: signalled. libomp's waits do not mind:
 *    futex waits without a timeout restart under SA_RESTART and condition
 *    waits absorb the wakeup.
 *
 * A thread seen running after it was blocked is left alone (its time goes to
 * its next sample) until its CPU clock shows it ran 50 us since: it may have
 * just woken and still wait for a CPU in the kernel, where poll and select
 * return EINTR for a signal that arrives before they return, even with their
 * time up. The sampler's own wakeups often coincide with the program's
 * (timer slack), and on a busy machine a woken thread can wait long.
 * A thread seen running that blocks before the signal lands still has its
 * call interrupted; the handler restarts it (wall_undo_interrupt).
 *
 * Each sample, whoever takes it, stands for the wall time since the thread's
 * previous one: a thread preempted on a busy machine (by the program's other
 * threads, or this sampler) has that time in its next sample, in the context
 * where it was preempted. Before, the sampler signalled running threads too:
 * on saturated cores its own wakeup preempted one of them at each tick and
 * the others ran on into the next barrier before their signal landed, so the
 * work of regions shorter than a tick went unsampled.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "agent_state.h"
#include "capture.h"
#include "clock.h"
#include "code_ranges.h"
#include "direct_bodies.h"
#include "handler.h"
#include "modules.h"
#include "mutex_table.h"
#include "record.h"
#include "thread_state.h"
#include "timers.h"
#include "wall.h"

/* si_value of the sampler's signals: a tag in the top 16 bits */
#define WALL_TAG       0x0f5aull
#define WALL_TAG_SHIFT 48

/* The largest sample record but for its stack snapshot. */
#define SAMPLE_MAX                                                                                                     \
  ((uint32_t)(sizeof(struct ompprof_record_header) + sizeof(struct ompprof_sample) +                                   \
              OMPPROF_MAX_LEVELS * sizeof(struct ompprof_task_level) +                                                 \
              OMPPROF_MAX_LEVELS * sizeof(struct ompprof_parallel_level)))

/* The sampler's state; one per process, owned by wall_start/wall_stop. */
static struct {
  pthread_t thread;
  int running;
  int stop;
  uid_t uid; /* its signals' sender */
} sampler;

/* ---- the handler's side (signal-safe) ---- */

int wall_is_signal(const siginfo_t *si) /* signal-safe */
{
  return si && si->si_code == SI_QUEUE && si->si_pid == (pid_t)ompprof_g.pid &&
         ((uint64_t)(uintptr_t)si->si_value.sival_ptr >> WALL_TAG_SHIFT) == WALL_TAG;
}

/* The overflow of the thread's cpu-clock event (the kernel sends it with
 * si_code POLL_IN and the event's descriptor). */
int wall_is_cpu_signal(const struct priv *p, const siginfo_t *si) /* signal-safe */
{
  return si && p && p->sig.has_timer == TIMER_WALL && p->wall.cpu_fd >= 0 && si->si_code == POLL_IN &&
         si->si_fd == p->wall.cpu_fd;
}

/* The wall time a sample of the thread taken at t stands for: since its
 * previous one, whoever took that (the handler and the sampler race; the
 * later time wins and the other sample stands for none). */
uint64_t wall_sample_weight(struct priv *p, uint64_t t) /* signal-safe */
{
  uint64_t last = __atomic_load_n(&p->wall.last_ns, __ATOMIC_ACQUIRE);
  do {
    if (t <= last)
      return 0;
  } while (!__atomic_compare_exchange_n(&p->wall.last_ns, &last, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  return t - last;
}

/* The weight of a sample the sampler's signal took: up to the latest tick at which the signal was on its way, not
 * up to its delivery. The thread has not run since the tick that sent it (it is delivered when the thread next
 * runs), so each tick finds the thread where the sample does, and stands for the time since the tick before. Up to
 * the delivery, a thread that waited for a CPU gave its wait's time to the sample it took on its way back, and the
 * next sample stood for that much less: on a machine loaded by other programs (2 threads among two busy processes
 * on 2 CPUs) the work before each barrier went to the barrier, and work was sampled as 35% of what it took. */
uint64_t wall_signal_weight(struct priv *p) /* signal-safe */
{
  return wall_sample_weight(p, __atomic_load_n(&p->wall.sent_ns, __ATOMIC_ACQUIRE));
}

/* After the sample (or none): the sampler may send again. */
void wall_signal_done(struct priv *p) /* signal-safe */
{
  __atomic_store_n(&p->wall.pending, 0, __ATOMIC_SEQ_CST);
}

/*
 * The signal found the thread returning EINTR from a system call: it blocked
 * between the sampler's look and the signal (the kernel has already rewound
 * restartable calls to the syscall instruction, so those do not show here).
 * The call did nothing (that is what EINTR means), so it is made to start
 * again as if no signal had come, as SA_RESTART does for the others: rip back
 * onto the syscall instruction, rax the call's number, which glibc's wrappers
 * load just before it (mov $nr, %eax); the argument registers are intact.
 * Relative timeouts start over: the time lost is the little the call had run
 * since the sampler saw the thread running (a thread that had blocked counts
 * as running only once it has run on, so this is a new call). Not when the
 * sampler signalled the thread blocked (a runtime wait, or no usable view)
 * and this is that call, made from the same place: it may have waited long.
 * Another call is one the thread made after that look, woken from the wait
 * before the signal went out (a sleep in an ordered section, just after its
 * turn came: cut short on a loaded machine). A cpu-clock signal comes while
 * the thread runs: its call had only begun. A call not restarted returns
 * EINTR and is counted. Reads of the code before rip stay on rip's page.
 */
void wall_undo_interrupt(ucontext_t *uc, int running) /* signal-safe */
{
  uint64_t rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
  if ((int64_t)uc->uc_mcontext.gregs[REG_RAX] != -EINTR || (rip & 0xfffu) < 7)
    return;
  const uint8_t *insn = (const uint8_t *)(uintptr_t)(rip - 7);
  if (insn[5] != 0x0f || insn[6] != 0x05)
    return;
  struct priv *p = __atomic_load_n(&ompprof_tls, __ATOMIC_RELAXED);
  if (insn[0] != 0xb8 || !PRIV_VALID(p) ||
      (!running && __atomic_load_n(&p->wall.blocked_pc, __ATOMIC_RELAXED) == rip)) {
    __atomic_add_fetch(&ompprof_g.hdr->wall_interrupted, 1, __ATOMIC_RELAXED);
    return;
  }
  uint32_t nr;
  sig_copy(&nr, insn + 1, sizeof nr);
  uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(rip - 2);
  uc->uc_mcontext.gregs[REG_RAX] = (greg_t)nr;
  __atomic_add_fetch(&ompprof_g.hdr->wall_restarted, 1, __ATOMIC_RELAXED);
}

static uint32_t levels_bytes(uint32_t nt, uint32_t np) /* signal-safe */
{
  return nt * (uint32_t)sizeof(struct ompprof_task_level) + np * (uint32_t)sizeof(struct ompprof_parallel_level);
}

/* Publishes the OpenMP part of a sample the thread just took (on the thread:
 * in its handler or a callback). A handler that interrupted a callback's
 * store leaves the view to it. */
void wall_view_store(struct priv *p, const struct ompprof_sample *s, const uint8_t *levels) /* signal-safe */
{
  struct wall_view *v = &p->wall.view;
  /* An explicit task whose code is not running (it returned: a signal between a completion's callback, which gave
   * the resumed task its view, and the runtime making that task current again) describes nothing the thread could
   * block in: the view it would replace may. (An implicit task without an exit frame is at its region's end or
   * idle: that view is kept, the sampler signals the thread.) */
  const struct ompprof_task_level *l0 = (const struct ompprof_task_level *)(const void *)levels;
  if (s->task_levels > 0 && (l0->task_flags & ompt_task_explicit) && l0->exit_frame == 0)
    return;
  uint32_t seq;
  if (!wall_view_open(v, &seq))
    return;
  ompt_frame_t *frame = NULL;
  ompt_data_t *task = NULL, *par = NULL;
  int flags = 0, num = -1;
  if (s->task_levels == 0 || ompprof_g.get_task_info(0, &flags, &task, &frame, &par, &num) == 0)
    frame = NULL;
  v->frame0 = (uint64_t)(uintptr_t)frame;
  __atomic_store_n(&v->made, VIEW_MADE_OTHER, __ATOMIC_RELAXED);
  v->state = s->state;
  v->wait_id = s->wait_id;
  v->thread_num = s->omp_thread_num;
  v->task_levels = s->task_levels;
  v->parallel_levels = s->parallel_levels;
  sig_copy(v->levels, levels, levels_bytes(s->task_levels, s->parallel_levels));
  wall_view_close(v, seq);
}

/* After a wait a sample saw (wall_view_resumed): the thread is back in its
 * own code, and may block in it before any signal samples it. */
static void wall_view_refresh(struct priv *p, int initial)
{
  struct agent *g = &ompprof_g;
  if (p->sig.has_timer != TIMER_WALL || !__atomic_load_n(&g->ompt_ready, __ATOMIC_ACQUIRE))
    return;
  struct {
    struct ompprof_sample s;
    uint8_t levels[sizeof p->wall.view.levels];
  } b;
  b.s.state = initial ? ompt_state_work_serial : ompt_state_work_parallel;
  b.s.wait_id = 0;
  handler_fill_levels(p, &b.s, b.levels);
  wall_view_store(p, &b.s, b.levels);
}

/* After a wait a sample saw (a mutex acquired at last: a lock, critical or
 * ordered section): the thread is back in its own code and may block there
 * (a sleep inside the section) before a signal samples it again. Its view
 * must not still say it waits, or the sampler takes the sleep for a runtime
 * wait and signals it short. */
void wall_view_resumed(struct priv *p)
{
  int flags = 0, num = -1;
  ompt_frame_t *frame = NULL;
  ompt_data_t *task = NULL, *par = NULL;
  if (ompprof_g.get_task_info == NULL || ompprof_g.get_task_info(0, &flags, &task, &frame, &par, &num) == 0)
    return;
  wall_view_refresh(p, (flags & ompt_task_initial) != 0);
}

/* Whether the frame of a task the runtime names by its data is found without asking it
 * (enum ompprof_task_frame): libomp keeps both in one ompt_task_info_t, the frame just before the
 * data (get_task_info hands out &info->frame and &info->task_data). That is learnt from the
 * runtime's own answers: once TASK_FRAME_AGREED of them agreed, views are made without calling
 * it; one answer that disagrees ends that for the run. A thread still asks at every
 * TASK_FRAME_RECHECK-th view. The state is the agent's to read on every switch, and mirrored in
 * the header for the JVM. */
#define TASK_FRAME_AGREED  16u
#define TASK_FRAME_RECHECK 1024u

static ompt_frame_t *task_frame_of(const ompt_data_t *task)
{
  return (ompt_frame_t *)((uintptr_t)task - sizeof(ompt_frame_t));
}

/* Asked to found once, in the agent's copy and the header's alike; refuted wins over both. */
static void task_frame_found(uint32_t *layout)
{
  uint32_t asked = OMPPROF_TASK_FRAME_ASKED;
  __atomic_compare_exchange_n(layout, &asked, OMPPROF_TASK_FRAME_FOUND, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static void task_frame_learn(const ompt_data_t *task, const ompt_frame_t *frame)
{
  struct agent *g = &ompprof_g;
  __atomic_add_fetch(&g->hdr->task_views_asked, 1, __ATOMIC_RELAXED);
  if (task_frame_of(task) != frame) {
    __atomic_store_n(&g->task_frame_layout, OMPPROF_TASK_FRAME_REFUTED, __ATOMIC_RELAXED);
    __atomic_store_n(&g->hdr->task_frame_layout, OMPPROF_TASK_FRAME_REFUTED, __ATOMIC_RELAXED);
  } else if (__atomic_add_fetch(&g->ids.task_frame_agreed, 1, __ATOMIC_RELAXED) >= TASK_FRAME_AGREED) {
    task_frame_found(&g->task_frame_layout);
    task_frame_found(&g->hdr->task_frame_layout);
  }
}

/* Whether the next task's level 0 is made from what the callback knows (its flags, and the team the thread runs its
 * tasks in) rather than asked of the runtime. */
static int view_knowable(struct wall_team *team, const ompt_data_t *next, uint32_t task_flags)
{
  return next != NULL && task_flags != 0 && team->known && ++team->switches < TASK_FRAME_RECHECK &&
         __atomic_load_n(&ompprof_g.task_frame_layout, __ATOMIC_RELAXED) == OMPPROF_TASK_FRAME_FOUND;
}

/* That level 0. */
static void view_known(const struct wall_team *team, const ompt_data_t *next, uint32_t task_flags,
                       struct ompprof_task_level *l)
{
  *l = (struct ompprof_task_level){.task_flags = task_flags,
                                   .thread_num = team->thread_num,
                                   .task_id = next->value,
                                   .parallel_id = team->parallel_id,
                                   .info_result = 2};
}

/* The same, asked of the runtime; the team and the layout are learnt from its answer. */
static int view_asked(struct wall_team *team, const ompt_data_t *next, struct ompprof_task_level *l,
                      ompt_frame_t **frame)
{
  int flags = 0, num = -1;
  ompt_data_t *task = NULL, *par = NULL;
  int r = ompprof_g.get_task_info(0, &flags, &task, frame, &par, &num);
  if (r == 0 || task != next || (uintptr_t)*frame < 65536u)
    return 0;
  task_frame_learn(task, *frame);
  *l = (struct ompprof_task_level){.task_flags = (uint32_t)flags,
                                   .thread_num = num,
                                   .task_id = task->value,
                                   .parallel_id = (uintptr_t)par >= 65536u ? par->value : 0,
                                   .info_result = (uint32_t)r};
  *team = (struct wall_team){l->parallel_id, num, 1, 0};
  return 1;
}

/* The view made whole of one task running its code: level 0 (its frame's exit taken from `frame`), the thread's state
 * with it. */
static void view_write(struct priv *p, struct ompprof_task_level l, const ompt_frame_t *frame, uint32_t made)
{
  struct wall_view *v = &p->wall.view;
  uint32_t seq;
  if (!wall_view_open(v, &seq))
    return;
  l.exit_frame = direct_bodies_exit(p, frame, (uint64_t)(uintptr_t)frame->exit_frame.ptr);
  l.exit_frame_flags = (uint32_t)frame->exit_frame_flags;
  *(struct ompprof_task_level *)(void *)v->levels = l;
  v->frame0 = (uint64_t)(uintptr_t)frame;
  __atomic_store_n(&v->made, made, __ATOMIC_RELAXED);
  v->state = (l.task_flags & ompt_task_initial) ? ompt_state_work_serial : ompt_state_work_parallel;
  v->wait_id = 0;
  v->thread_num = l.thread_num;
  v->task_levels = 1;
  v->parallel_levels = 0;
  wall_view_close(v, seq);
}

/* The view of the next task, asked of the runtime (made only if the task it finds current is the next one). */
__attribute__((noinline)) static void view_asked_whole(struct priv *p, const ompt_data_t *next, struct wall_team *team)
{
  struct ompprof_task_level l;
  ompt_frame_t *frame = NULL;
  if (next == NULL || !view_asked(team, next, &l, &frame)) {
    wall_view_drop(p);
    return;
  }
  view_write(p, l, frame, VIEW_MADE_OTHER);
}

/* The view of `next`, whose flags and frame are known, in `team`. A task program's switches from one task to the
 * next, a region-heavy loop's from one implicit task to the next: the view holds a known one of the same kind and
 * thread number, and only the task's own fields and its region change. Every other writer of the view marks it; the
 * mark is looked at again with the view held, as a handler may have written it in between. */
static void view_of_known(struct priv *p, const ompt_data_t *next, uint32_t task_flags, const ompt_frame_t *frame,
                          const struct wall_team *team)
{
  struct wall_view *v = &p->wall.view;
  struct ompprof_task_level *l = (struct ompprof_task_level *)(void *)v->levels;
  uint32_t seq;
  if (v->made == VIEW_MADE_KNOWN && l->task_flags == task_flags && l->thread_num == team->thread_num &&
      wall_view_open(v, &seq)) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the mark read anew, not the value from before the open */
    if (__atomic_load_n(&v->made, __ATOMIC_RELAXED) == VIEW_MADE_KNOWN) {
      l->exit_frame = direct_bodies_exit(p, frame, (uint64_t)(uintptr_t)frame->exit_frame.ptr);
      l->exit_frame_flags = (uint32_t)frame->exit_frame_flags;
      l->task_id = next->value;
      l->parallel_id = team->parallel_id;
      v->frame0 = (uint64_t)(uintptr_t)frame;
      v->task_levels = 1;
      wall_view_close(v, seq);
      return;
    }
    wall_view_close(v, seq);
  }
  struct ompprof_task_level whole;
  view_known(team, next, task_flags, &whole);
  view_write(p, whole, frame, VIEW_MADE_KNOWN);
}

/* When a task becomes the thread's current one (a task scheduling point, an
 * implicit task's begin): the thread is about to run the next task's code and
 * may block in it (a sleep in a task body) before a signal samples it. A view
 * still naming the task it left would make the sampler take that sleep for a
 * runtime wait and signal it short (every sleep in a task ran short), and the
 * left task's frame may be freed and reused. When a task completes (libomp
 * makes the next task current after the callback then, so it cannot be
 * asked), the task it resumes gets back the view it had when it was suspended
 * (wall.h, wall_task_resume), else the view is dropped and the sampler
 * signals the thread until its next sample. Otherwise the view is of the next
 * task: made from what the callback knows (`task_flags`, nonzero, and the
 * thread's `team`) once the task frame's place is learnt; else asked of the
 * runtime, and made only if the task it finds current is the next one. A view
 * of a task not yet running is safe: the sampler reads its frame live and
 * takes it only once the task's code runs. The view has level 0 alone, which
 * is all the stitching reads of a task whose creation was recorded: the full
 * levels cost a call per level and ancestor (a task recursion runs dozens
 * deep: fib's callbacks doubled its time recorded; and every thread begins an
 * implicit task in every parallel region). */
void wall_view_switch(struct priv *p, const ompt_data_t *next, uint32_t task_flags, struct wall_team *team)
{
  if (p->sig.has_timer != TIMER_WALL)
    return;
  if (view_knowable(team, next, task_flags))
    view_of_known(p, next, task_flags, task_frame_of(next), team);
  else
    view_asked_whole(p, next, team);
}

/* wall_task_resume's slow part: the task was suspended here with a view of known flags. */
int wall_task_resumed(struct priv *p, const ompt_data_t *task, uint32_t i)
{
  struct wall_suspended *w = &p->cb.suspended;
  if (w->flags[i] & WALL_SUSPENDED_REGION) {
    struct wall_team t = {w->parallel_id[i], w->thread_num[i], 1, p->cb.team.switches};
    p->cb.team = t;
  }
  uint32_t flags = w->flags[i] & ~(uint32_t)WALL_SUSPENDED_REGION;
  if (flags == 0)
    return 0;
  /* by its frame as it was seen then (the runtime cannot be asked: a completed task is still current), not by its
   * data: the frame's place may not be learnt yet, and the views asked to check it are counted per switch */
  view_of_known(p, task, flags, (const ompt_frame_t *)(uintptr_t)w->frame[i], &p->cb.team);
  return 1;
}

/* ---- registration (on the thread, from callbacks) ---- */

int wall_register(struct priv *p)
{
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%u/syscall", p->os_tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  p->wall.fd = fd;
  p->wall.last_ns = p->wall.sent_ns = now_ns();
  p->wall.cpu_sampled_ns = 0;
  p->wall.pending = 0;
  p->wall.last = malloc(SAMPLE_MAX + RING_ALIGN8(ompprof_g.stack_bytes));
  p->wall.last_size = 0;
  p->wall.was_blocked = 0;
  __atomic_store_n(&p->wall.view.seq, 0, __ATOMIC_RELAXED);
  p->wall.view.task_levels = 0;
  p->wall.view.made = VIEW_MADE_OTHER;
  p->wall.cpu_fd = ompprof_g.wall_cpu_clock ? timer_perf_open(p) : -1;
  __atomic_store_n(&p->sig.has_timer, TIMER_WALL, __ATOMIC_RELEASE);
  if (p->wall.cpu_fd >= 0 && ioctl(p->wall.cpu_fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    close(p->wall.cpu_fd); /* the sampler signals it while it runs, then */
    p->wall.cpu_fd = -1;
  }
  return 1;
}

/* After this the sampler neither signals the thread nor writes its ring. */
void wall_unregister(struct priv *p)
{
  if (p->wall.cpu_fd >= 0)
    ioctl(p->wall.cpu_fd, PERF_EVENT_IOC_DISABLE, 0);
  __atomic_store_n(&p->sig.has_timer, TIMER_NONE, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&p->sig.in_handler, __ATOMIC_ACQUIRE) == RING_WALL) {
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
  }
  close(p->wall.fd);
  if (p->wall.cpu_fd >= 0)
    close(p->wall.cpu_fd);
  p->wall.cpu_fd = -1;
  free(p->wall.last);
  p->wall.last = NULL;
}

/* ---- the sampler thread ---- */

/* Blocked in the same call, made from the same place. */
static int same_call(const struct blocked *a, const struct blocked *b)
{
  return a->nr == b->nr && a->sp == b->sp && a->pc == b->pc;
}

/* 1 blocked in a system call (b filled), 0 running or not in a call, -1 unreadable. */
static int read_blocked(int fd, struct blocked *b)
{
  char buf[256];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  if (buf[0] == 'r') /* "running" */
    return 0;
  char *end;
  b->nr = strtol(buf, &end, 10);
  if (end == buf || b->nr < 0) /* -1: blocked outside a system call (a page fault) */
    return 0;
  /* nr, six arguments, sp, pc */
  const char *q = end;
  unsigned long long w[8];
  for (int i = 0; i < 8; i++) {
    w[i] = strtoull(q, &end, 16);
    if (end == q)
      return -1;
    q = end;
  }
  b->sp = w[6];
  b->pc = w[7];
  return 1;
}

static int read_mem(void *dst, uint64_t src, size_t n)
{
  struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)src, n};
  return process_vm_readv((pid_t)ompprof_g.pid, &local, 1, &remote, 1, 0) == (ssize_t)n;
}

static int work_state(uint32_t state)
{
  return state == ompt_state_work_serial || state == ompt_state_work_parallel || state == ompt_state_work_reduction;
}

/* A consistent copy of the thread's view, or 0. */
static int view_copy(const struct priv *p, struct wall_view *out)
{
  const struct wall_view *v = &p->wall.view;
  uint32_t s1 = __atomic_load_n(&v->seq, __ATOMIC_ACQUIRE);
  if (s1 == 0 || (s1 & 1u))
    return 0;
  memcpy(out, v, sizeof *out);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&v->seq, __ATOMIC_RELAXED) == s1 && out->task_levels > 0 &&
         out->task_levels <= OMPPROF_MAX_LEVELS && out->parallel_levels <= OMPPROF_MAX_LEVELS;
}

/* Waits the runtime enters through a call that sets the task's enter frame: a barrier inside a region (the end of a
 * worksharing loop, an explicit one, the runtime's own), a taskwait, a taskgroup's end. No callback says when such a
 * wait ends (sync_region is not registered), so a view the thread published in one (a sample there) outlives it. */
static int wait_with_enter_frame(uint32_t state)
{
  return state == ompt_state_wait_barrier_implicit_workshare || state == ompt_state_wait_barrier_explicit ||
         state == ompt_state_wait_barrier_implementation || state == ompt_state_wait_taskwait ||
         state == ompt_state_wait_taskgroup;
}

/* Whether the view still describes the thread: its task runs user code (the
 * runtime sets the enter frame on every call into it and clears the exit
 * frame when the task's code returns). Level 0's frames are the live ones.
 * A view made in a wait with an enter frame describes the task back in its
 * code once that frame is clear, in the work state: a sleep right after a
 * barrier or a taskwait is the program's, not the wait's, and is not
 * signalled short. */
static int view_current(const struct priv *p, struct wall_view *v, const struct blocked *b)
{
  int left_wait = wait_with_enter_frame(v->state);
  if ((!work_state(v->state) && !left_wait) || __atomic_load_n(&p->sig.acq_id, __ATOMIC_RELAXED) != 0 ||
      v->frame0 < 65536u)
    return 0;
  ompt_frame_t live;
  if (!read_mem(&live, v->frame0, sizeof live))
    return 0;
  struct ompprof_task_level *l0 = (struct ompprof_task_level *)(void *)v->levels;
  uint64_t exit = direct_bodies_exit(p, (const void *)(uintptr_t)v->frame0, (uint64_t)(uintptr_t)live.exit_frame.ptr);
  uint64_t enter = (uint64_t)(uintptr_t)live.enter_frame.ptr;
  int initial = (l0->task_flags & ompt_task_initial) != 0;
  if (enter != 0 || (!initial && exit == 0) || (l0->exit_frame != 0 && exit != l0->exit_frame))
    return 0;
  if (exit != 0 && b->sp >= exit)
    return 0;
  l0->exit_frame = exit;
  l0->enter_frame = 0;
  l0->exit_frame_flags = (uint32_t)live.exit_frame_flags;
  if (left_wait) {
    v->state = initial ? ompt_state_work_serial : ompt_state_work_parallel;
    v->wait_id = 0;
  }
  return 1;
}

/* Whether ra follows a call instruction in loaded code (e8 rel32, or ff /2 in 2, 3, 6 or 7 bytes). */
static int return_address(uint64_t ra)
{
  uint8_t b[7]; /* b[i] is the byte at ra - 7 + i */
  if (!code_ranges_contains(ra) || !code_ranges_contains(ra - 7) || !read_mem(b, ra - 7, sizeof b))
    return 0;
  if (b[2] == 0xe8)
    return 1;
  static const int ff_at[] = {5, 4, 1, 0};
  for (unsigned i = 0; i < sizeof ff_at / sizeof ff_at[0]; i++)
    if (b[ff_at[i]] == 0xff && ((b[ff_at[i] + 1] >> 3) & 7u) == 2)
      return 1;
  return 0;
}

/* Bytes a function built with a frame pointer keeps between rbp and rsp in
 * its body, read from its prologue: [endbr64] push %rbp; mov %rsp,%rbp; then
 * pushes and one sub from rsp. -1 when the entry does not read so. */
static int64_t frame_below_rbp(uint64_t entry)
{
  uint8_t b[40];
  if (!code_ranges_contains(entry) || !code_ranges_contains(entry + sizeof b - 1) || !read_mem(b, entry, sizeof b))
    return -1;
  uint32_t i = 0;
  if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
    i = 4;
  if (b[i] != 0x55 || b[i + 1] != 0x48 || b[i + 2] != 0x89 || b[i + 3] != 0xe5)
    return -1;
  int64_t below = 0;
  for (i += 4; i + 7 <= sizeof b;) {
    if (b[i] >= 0x50 && b[i] <= 0x57) { /* push of rax..rdi (rbx, and rax for alignment) */
      below += 8;
      i += 1;
    } else if (b[i] == 0x41 && b[i + 1] >= 0x50 && b[i + 1] <= 0x57) { /* push r8..r15 */
      below += 8;
      i += 2;
    } else if (b[i] == 0x48 && b[i + 1] == 0x83 && b[i + 2] == 0xec) { /* sub $imm8, %rsp */
      return below + b[i + 3];
    } else if (b[i] == 0x48 && b[i + 1] == 0x81 && b[i + 2] == 0xec) { /* sub $imm32, %rsp */
      uint32_t imm;
      memcpy(&imm, b + i + 3, 4);
      return below + imm;
    } else {
      return below;
    }
  }
  return -1;
}

/*
 * The kernel shows sp and pc of a blocked call, not rbp, which code built
 * with frame pointers needs to be unwound. The functions between the call and
 * the innermost frame that uses rbp leave it alone or save it, so the value
 * needed is that frame's rbp: a slot `c` on the stack holding the caller's
 * rbp, then a return address after a direct call of some function F, whose
 * prologue says how far below rbp its body keeps rsp; the word just below
 * that is then the return address of F's own call, inside F. Stale frames
 * left in uninitialized locals fail that test. 0 when nothing passes (the
 * unwind then stops where rbp is needed).
 */
static uint64_t guess_rbp(const uint8_t *stack, uint64_t sp, uint32_t n, uint64_t hi)
{
  for (uint32_t at = 16; at + 16u <= n; at += 8) {
    uint64_t saved, ra, ra_f;
    memcpy(&saved, stack + at, 8);
    memcpy(&ra, stack + at + 8, 8);
    if (saved <= sp + at || saved >= hi || (saved & 7u) || !code_ranges_contains(ra - 5))
      continue;
    uint8_t call[5];
    if (!read_mem(call, ra - 5, sizeof call) || call[0] != 0xe8)
      continue;
    int32_t rel;
    memcpy(&rel, call + 1, 4);
    uint64_t entry = ra + (uint64_t)(int64_t)rel;
    int64_t below = frame_below_rbp(entry);
    if (below < 0 || (uint64_t)below + 8u > at)
      continue;
    memcpy(&ra_f, stack + at - below - 8, 8);
    if (ra_f > entry && ra_f - entry < (1u << 20) && return_address(ra_f))
      return sp + at;
  }
  return 0;
}

/* rbp at the blocked call when guess_rbp found no frame of the task's own (it knows a frame by its caller's direct
 * call, and the runtime calls a task's code through a pointer): a frame-pointer frame the task's code called it from
 * saved the exit frame (the runtime's frame that called the task, a frame pointer) just under its return address, and
 * its own frame pointer is that slot. Code without frame pointers leaves rbp the exit frame itself. Either is a guess
 * (a callee-saved register pushed there can hold the same value): the collector tries the exit frame when the unwind
 * from this one misses it. */
static uint64_t below_exit_frame(const uint8_t *stack, uint64_t sp, uint32_t n, uint64_t exit)
{
  for (uint64_t a = (exit - 8u) & ~(uint64_t)7u; a >= sp + 8u && a + 16u <= sp + n; a -= 8) {
    uint64_t saved, ra;
    memcpy(&saved, stack + (a - sp), 8);
    memcpy(&ra, stack + (a - sp) + 8, 8);
    if (saved == exit && return_address(ra))
      return a;
  }
  return exit;
}

/* Writes the sample of a blocked thread into its ring (the caller holds the
 * ring). 1 written or dropped for want of room; 0 the thread moved. */
static int sample_outside(struct priv *p, const struct wall_view *v, const struct blocked *b, uint64_t t0)
{
  struct agent *g = &ompprof_g;
  /* no frames walked: the collector unwinds the copied stack from the blocked call (OMPPROF_WALK_CONTINUE) */
  struct ompprof_context ctx = {.rip = b->pc, .rsp = b->sp, .walk_stop = OMPPROF_WALK_CONTINUE};
  uint32_t n = snapshot_len(&ctx, p->sig.stack_lo, p->sig.stack_hi, g->stack_bytes);
  const struct ompprof_task_level *l0 = (const struct ompprof_task_level *)(const void *)v->levels;
  if (l0->exit_frame > ctx.rsp && l0->exit_frame - ctx.rsp + EXIT_FRAME_MARGIN < n) {
    n = (uint32_t)(l0->exit_frame - ctx.rsp + EXIT_FRAME_MARGIN);
    ctx.ctx_flags &= ~(uint32_t)OMPPROF_CTX_TRUNCATED;
  }
  ctx.stack_len = n;
  uint32_t lb = levels_bytes(v->task_levels, v->parallel_levels);
  struct ring_res res;
  if (!record_reserve(&p->sig.sample, OMPPROF_REC_SAMPLE, SAMPLE_MAX + (uint32_t)RING_ALIGN8(n), p->thread_seq, &res))
    return 1;
  struct ompprof_record_header *h = (struct ompprof_record_header *)(void *)res.rec;
  struct ompprof_sample *s = (struct ompprof_sample *)(void *)(h + 1);
  uint8_t *stack = (uint8_t *)(s + 1) + lb;
  struct blocked again;
  if (n & 7u)
    memset(stack + (n & ~7u), 0, 8);
  if (n && !read_mem(stack, ctx.rsp, n))
    return 0;
  if (read_blocked(p->wall.fd, &again) != 1 || !same_call(&again, b))
    return 0; /* woke during the copy: the reservation is simply never committed */
  uint32_t seq;
  do {
    seq = code_ranges_begin();
    ctx.rbp = guess_rbp(stack, ctx.rsp, n, p->sig.stack_hi);
    if ((ctx.rbp == 0 || ctx.rbp == l0->exit_frame) && l0->exit_frame > ctx.rsp &&
        (l0->exit_frame_flags & ompt_frame_framepointer))
      ctx.rbp = below_exit_frame(stack, ctx.rsp, n, l0->exit_frame);
  } while (code_ranges_changed(seq));
  s->time_ns = t0;
  s->weight_ns = wall_sample_weight(p, t0);
  s->os_tid = p->os_tid;
  s->omp_thread_num = v->thread_num;
  s->state = v->state;
  s->flags = (v->task_levels ? OMPPROF_SAMPLE_OMPT_READY : 0) | OMPPROF_SAMPLE_OUTSIDE;
  s->wait_id = v->wait_id;
  s->task_levels = v->task_levels;
  s->parallel_levels = v->parallel_levels;
  s->ctx = ctx;
  memcpy(s + 1, v->levels, lb);
  uint32_t size = (uint32_t)(sizeof(*h) + sizeof(*s) + lb + RING_ALIGN8(n));
  record_commit(&p->sig.sample, &res, size);
  if (p->wall.last) {
    memcpy(p->wall.last, h, size);
    p->wall.last_size = size;
    p->wall.last_seq = v->seq;
    p->wall.last_records = record_count(&p->sig.sample);
  }
  return 1;
}

/* Before the runtime's tool initialize (the agent preloaded, the program in its serial start): a blocked thread is
 * sampled from outside with no OpenMP state, on its plain call path, never signalled out of its call. */
static int view_plain(struct wall_view *v)
{
  if (__atomic_load_n(&ompprof_g.ompt_ready, __ATOMIC_ACQUIRE))
    return 0;
  memset(v, 0, sizeof *v);
  v->state = ompt_state_work_serial; /* as the handler says of the program's serial start */
  v->thread_num = -1;
  return 1;
}

/* The thread's last sample from outside again, for a tick at which it is still blocked in that call or has woken
 * but not yet run. Where it is still the ring's last record, only its sample struct is sent, marked as a repeat (the
 * collector takes the rest from the record before): a sleeping thread's samples were its stack copied a thousand
 * times a second, most of a long run's recording. */
static int sample_again(struct priv *p, uint64_t t0)
{
  struct ring_res res;
  const uint32_t hdr = (uint32_t)sizeof(struct ompprof_record_header);
  int repeat = p->wall.last_records == record_count(&p->sig.sample);
  uint32_t size = repeat ? hdr + (uint32_t)sizeof(struct ompprof_sample) : p->wall.last_size;
  if (!p->wall.last_size || !record_reserve(&p->sig.sample, OMPPROF_REC_SAMPLE, size, p->thread_seq, &res))
    return 0;
  memcpy(res.rec + hdr, p->wall.last + hdr, size - hdr);
  struct ompprof_sample *s = (struct ompprof_sample *)(void *)(res.rec + hdr);
  s->time_ns = t0;
  s->weight_ns = wall_sample_weight(p, t0);
  if (repeat)
    record_sample_as_repeat(s);
  record_commit(&p->sig.sample, &res, size);
  p->wall.last_records = record_count(&p->sig.sample);
  return 1;
}

/* Whether a thread seen blocked and now running may still be in that call,
 * its last sample from outside still true: it has published no view since (a
 * task's end does), is not acquiring a mutex, and its task has not called into
 * the runtime or returned (the enter frame is set on most calls into it, the
 * exit frame cleared when the task's code returns). Its CPU time alone cannot tell: a thread that
 * yields while it waits (libomp's barriers, more threads than cores) runs a
 * few microseconds at a time, and a finished sleep went on being sampled as
 * sleeping for tens of milliseconds. */
static int still_in_call(const struct priv *p)
{
  struct wall_view v;
  ompt_frame_t live;
  if (__atomic_load_n(&p->sig.acq_id, __ATOMIC_RELAXED) != 0 || !view_copy(p, &v) || v.seq != p->wall.last_seq ||
      !read_mem(&live, v.frame0, sizeof live))
    return 0;
  return live.enter_frame.ptr == NULL && (uint64_t)(uintptr_t)live.exit_frame.ptr == p->wall.blocked_exit;
}

/* How old a look at a running thread may be when it is signalled (the sampler
 * itself can be preempted between the two on a busy machine). */
#define FRESH_NS 20000u

/* SIGPROF does not queue: a second one sent while the first is pending is
 * lost, so only one signal is in flight (its sample stands for all the time since the last). */
static void send_signal(struct priv *p, uint64_t tick, uint64_t looked)
{
  siginfo_t si;
  memset(&si, 0, sizeof si);
  si.si_signo = ompprof_g.signo;
  si.si_code = SI_QUEUE;
  si.si_pid = (pid_t)ompprof_g.pid;
  si.si_uid = sampler.uid;
  si.si_value.sival_ptr = (void *)(uintptr_t)(WALL_TAG << WALL_TAG_SHIFT);
  /* A look this old may no longer hold: the thread may be entering a call by now. */
  if (now_ns() - looked > FRESH_NS)
    return;
  __atomic_store_n(&p->wall.sent_ns, tick, __ATOMIC_RELEASE); /* pending: the thread is still where it was then */
  if (__atomic_exchange_n(&p->wall.pending, 1, __ATOMIC_SEQ_CST))
    return;
  if (syscall(SYS_rt_tgsigqueueinfo, (pid_t)ompprof_g.pid, (pid_t)p->os_tid, ompprof_g.signo, &si) == 0)
    __atomic_add_fetch(&ompprof_g.hdr->wall_signalled, 1, __ATOMIC_RELAXED);
}

/* The thread's CPU time (ns; 0 if unreadable): a thread clock of our own process. */
static uint64_t thread_cpu_ns(const struct priv *p)
{
  clockid_t clock = (clockid_t)((~(uint32_t)p->os_tid) << 3 | 6u); /* the kernel's MAKE_THREAD_CPUCLOCK(tid, SCHED) */
  struct timespec ts;
  if (clock_gettime(clock, &ts) != 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether a thread seen blocked is still in the call of its last sample from
 * outside without having run since: its stack cannot have changed, and that
 * sample holds again (copying the stack again was most of the sampler's cost). */
static int not_run_since(const struct priv *p, const struct blocked *b)
{
  struct wall_view v;
  if (!p->wall.was_blocked || !p->wall.last_size || !same_call(b, &p->wall.blocked) || !view_copy(p, &v) ||
      v.seq != p->wall.last_seq)
    return 0;
  uint64_t cpu = thread_cpu_ns(p);
  return cpu != 0 && cpu == p->wall.cpu_blocked;
}

/* A thread that blocked counts as back in user code once it has run for this long since. */
#define WOKEN_RUN_NS 50000u

/* A thread waiting for a mutex is marked at every tick, whether it runs or not and whether the tick is taken or
 * not, so that the holds it waits behind are written (mutex_table.h). */
static void mark_waits(const struct priv *p)
{
  uint64_t waiting_for = __atomic_load_n(&p->sig.acq_id, __ATOMIC_RELAXED), marked_ns;
  if (waiting_for && __atomic_load_n(&p->sig.has_timer, __ATOMIC_ACQUIRE) == TIMER_WALL)
    mutex_mark_now(waiting_for, &marked_ns);
}

/* One thread at one tick. The ring is taken first so that the thread's own
 * handler (a foreign signal while it blocks) cannot write at the same time. */
static void visit(struct priv *p, uint64_t t0)
{
  if (__atomic_load_n(&p->sig.has_timer, __ATOMIC_ACQUIRE) != TIMER_WALL)
    return;
  /* its cpu-clock event sampled it within the period: it runs, nothing to look at (the look's
   * system calls are most of the sampler's cost, on the cores the program computes on) */
  if (p->wall.cpu_fd >= 0 && t0 - __atomic_load_n(&p->wall.cpu_sampled_ns, __ATOMIC_ACQUIRE) < ompprof_g.period_ns)
    return;
  uint8_t expect = RING_FREE;
  if (!__atomic_compare_exchange_n(&p->sig.in_handler, &expect, RING_WALL, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    return;
  int signal = 0;
  uint64_t looked = 0; /* when the thread was seen running */
  if (__atomic_load_n(&p->sig.has_timer, __ATOMIC_SEQ_CST) == TIMER_WALL) {
    struct blocked b;
    struct wall_view v;
    looked = now_ns();
    int r = read_blocked(p->wall.fd, &b);
    if (r == 1 && not_run_since(p, &b)) {
      if (sample_again(p, t0))
        __atomic_add_fetch(&ompprof_g.hdr->wall_outside, 1, __ATOMIC_RELAXED);
    } else if (r == 1 && ((view_copy(p, &v) && view_current(p, &v, &b)) || view_plain(&v))) {
      if (sample_outside(p, &v, &b, t0))
        __atomic_add_fetch(&ompprof_g.hdr->wall_outside, 1, __ATOMIC_RELAXED);
      p->wall.was_blocked = 1;
      p->wall.cpu_blocked = thread_cpu_ns(p);
      p->wall.blocked = b;
      /* as checked against the live frame: the view may have been published before the task's code was entered */
      p->wall.blocked_exit = ((const struct ompprof_task_level *)(const void *)v.levels)->exit_frame;
    } else if (r == 0 && p->wall.was_blocked && p->wall.last_size &&
               thread_cpu_ns(p) < p->wall.cpu_blocked + WOKEN_RUN_NS && still_in_call(p)) {
      /* woken but maybe still in the kernel on its way out of the call */
      if (sample_again(p, t0))
        __atomic_add_fetch(&ompprof_g.hdr->wall_outside, 1, __ATOMIC_RELAXED);
    } else if (r >= 0) {
      p->wall.last_size = 0;
      /* running: its cpu-clock event samples it, unless it has not for two periods (it ran in the
       * kernel, which the event does not count where perf_event_paranoid is 2: sched_yield loops,
       * page faults; or it waited for a CPU). Blocked inside the runtime (whose waits take signals
       * in their stride), or running without an event: signalled. Nothing to protect once it
       * wakes, so its first moments back are sampled like any others. */
      uint64_t since = t0 - __atomic_load_n(&p->wall.last_ns, __ATOMIC_ACQUIRE);
      signal = r == 1 || p->wall.cpu_fd < 0 || (since < (1ull << 62) && since > 2 * ompprof_g.period_ns);
      __atomic_store_n(&p->wall.blocked_pc, r == 1 ? b.pc : 0, __ATOMIC_RELAXED);
      p->wall.was_blocked = 0;
    }
  }
  /* released before signalling: the handler takes the ring itself */
  __atomic_store_n(&p->sig.in_handler, RING_FREE, __ATOMIC_RELEASE);
  if (signal)
    send_signal(p, t0, looked);
}

/* The next tick's distance: the period, jittered by up to half of it either way (xorshift64),
 * so that a program whose loop runs in step with the period is not always sampled in the same
 * phase of it (one sampler ticking every thread at once would otherwise alias). */
static uint64_t jittered(uint64_t period, uint64_t *rng)
{
  uint64_t x = *rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *rng = x;
  return period / 2 + x % (period + 1);
}

/* Sleeps until `at` (CLOCK_MONOTONIC, ns) or until wall_stop wakes it; 1 if the tick is due. A futex on
 * the stop flag rather than clock_nanosleep: the program's exit waits for this thread, and at a low
 * --rate a sleep holds it up to a second and a half. */
static int sleep_until(uint64_t at)
{
  struct timespec ts = {(time_t)(at / 1000000000u), (long)(at % 1000000000u)};
  long r =
      syscall(SYS_futex, &sampler.stop, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
  return r != 0 && errno == ETIMEDOUT;
}

/*
 * The sampler shares the program's CPUs. When they are all busy, a tick is
 * taken late, when one of them frees, and on saturated cores one frees when a
 * thread reaches a barrier or a lock and yields: ticks taken then see threads
 * waiting more often than they wait (4 threads of balanced 300 us pieces on 2
 * CPUs: their work sampled as 81-87% of what they timed themselves; a quarter
 * of the ticks came 100-500 us late). So the sampler asks to be prompt, and a
 * tick it comes to more than LATE_NS after its time (or the rest of one, when
 * it was held up between two threads) is left: each thread's next sample
 * stands for that time. Never two in a row: a machine on which the sampler is
 * always late still samples, and a sample never stands for more than two
 * periods (a run of left ticks gave a thread's tens of milliseconds blocked in
 * a call to the computing it went on to, where its next sample found it).
 */
#define LATE_NS 50000u

/* How prompt the sampler can be: no timer slack (50 us by default), and a short slice, with which Linux's EEVDF
 * scheduler (6.12 and later) lets it preempt the thread running when it wakes rather than wait for the end of that
 * thread's slice. Unprivileged; older kernels ignore the slice. The thread's nice value is kept. */
#define SAMPLER_SLICE_NS 100000u

#define SCHED_RESET_ON_FORK_FLAG 0x01ull /* linux/sched.h's SCHED_FLAG_RESET_ON_FORK, which clashes with sched.h */

struct sched_attr_v0 { /* the system call's own layout (SCHED_ATTR_SIZE_VER0) */
  uint32_t size, policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime, deadline, period;
};

static void sampler_prompt(void)
{
  prctl(PR_SET_TIMERSLACK, 1ul, 0ul, 0ul, 0ul);
  struct sched_attr_v0 a;
  memset(&a, 0, sizeof a);
  if (syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) != 0 || a.policy != SCHED_OTHER)
    return;
  a.size = sizeof a;
  a.flags &= SCHED_RESET_ON_FORK_FLAG; /* what else it reports (utilization clamps) needs a longer layout */
  a.runtime = SAMPLER_SLICE_NS;
  syscall(SYS_sched_setattr, 0, &a, 0);
}

/* Whether a look at `now`, when the sampler was due at `due`, comes too late to be taken. */
static int too_late(uint64_t now, uint64_t due)
{
  return now - due > LATE_NS;
}

/* One tick: every thread's waits marked, and each thread looked at unless the sampler finds itself late (at the
 * tick, or between two threads) and took the tick before: then the rest of this one is left. 1 if it was. */
static int tick(uint64_t due, int may_leave)
{
  struct agent *g = &ompprof_g;
  uint64_t t0 = now_ns();
  int left = 0;
  for (uint32_t i = 0; i < g->slot_count; i++) {
    struct priv *p = &g->privs[i];
    mark_waits(p);
    if (left || __atomic_load_n(&p->sig.has_timer, __ATOMIC_ACQUIRE) != TIMER_WALL)
      continue;
    if (may_leave && too_late(now_ns(), due)) {
      left = 1;
      continue;
    }
    visit(p, t0);
    due = now_ns(); /* the next look is due at once */
  }
  if (left)
    __atomic_add_fetch(&g->hdr->wall_late_ticks, 1, __ATOMIC_RELAXED);
  return left;
}

static void *sampler_main(void *arg)
{
  (void)arg;
  struct agent *g = &ompprof_g;
  sampler_prompt();
  sampler.uid = getuid();
  uint64_t period = g->period_ns, rng = now_ns() | 1, next = now_ns() + jittered(period, &rng);
  int left = 1; /* the first tick is taken */
  while (!__atomic_load_n(&sampler.stop, __ATOMIC_ACQUIRE)) {
    if (!sleep_until(next))
      continue;
    uint64_t due = next;
    next = now_ns() + jittered(period, &rng);
    if (__atomic_load_n(&g->gate, __ATOMIC_RELAXED) || !agent_attached())
      continue;
    left = tick(due, !left);
  }
  return NULL;
}

/* Started with every signal blocked, so that neither our signal nor the
 * program's ever lands on the sampler. */
int wall_start(void)
{
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int r = pthread_create(&sampler.thread, NULL, sampler_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (r != 0)
    return 0;
  pthread_setname_np(sampler.thread, "ompprof-wall");
  sampler.running = 1;
  return 1;
}

void wall_stop(void)
{
  if (!sampler.running)
    return;
  __atomic_store_n(&sampler.stop, 1, __ATOMIC_RELEASE);
  syscall(SYS_futex, &sampler.stop, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
  clockid_t clock;
  struct timespec cpu = {0, 0};
  if (ompprof_g.debug && pthread_getcpuclockid(sampler.thread, &clock) == 0)
    clock_gettime(clock, &cpu);
  pthread_join(sampler.thread, NULL);
  if (ompprof_g.debug)
    fprintf(stderr,
            "ompprof agent: wall sampler: %.1f ms CPU, %llu samples from outside, %llu signals, %llu calls"
            " interrupted, %llu restarted\n",
            (double)cpu.tv_sec * 1e3 + (double)cpu.tv_nsec / 1e6,
            (unsigned long long)__atomic_load_n(&ompprof_g.hdr->wall_outside, __ATOMIC_RELAXED),
            (unsigned long long)__atomic_load_n(&ompprof_g.hdr->wall_signalled, __ATOMIC_RELAXED),
            (unsigned long long)__atomic_load_n(&ompprof_g.hdr->wall_interrupted, __ATOMIC_RELAXED),
            (unsigned long long)__atomic_load_n(&ompprof_g.hdr->wall_restarted, __ATOMIC_RELAXED));
  sampler.running = 0;
}
