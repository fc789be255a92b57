/*
 * cpu mode: whether a thread switches so often that its perf event costs more
 * than its precision is worth. The kernel schedules a thread's perf cpu-clock
 * event out and in at each of the thread's context switches (an hrtimer cancel
 * and start; in a VM a timer reprogramming that exits to the hypervisor):
 * 10-25 us per switch measured on a 2-core VM, against 1.5-3 us for the switch
 * itself. A thread whose switches per CPU-second pass a limit moves to a POSIX
 * CPU-clock timer, which costs nothing per switch (timers.c).
 *
 * The rate is taken over windows of the thread's CPU time (the perf event's
 * counts, which the samples carry anyway); only at the end of a window does
 * the handler ask the kernel for the thread's switch count. Pure: no system
 * calls here, so the decision is unit-tested (tests/switch_watch_test.c).
 */
#ifndef OMPPROF_SWITCH_WATCH_H
#define OMPPROF_SWITCH_WATCH_H

#include <stdint.h>

/* CPU time a rate is measured over (10 switches at the default limit), and
 * how many windows in a row must pass the limit: short, because until the
 * verdict a thread that switches hundreds of thousands of times per
 * CPU-second runs several times slower (one window of 20 ms left
 * quicksort_critical's threads on their perf events for 30-80 ms); several,
 * because a busy thread on a machine loaded by others can be preempted in
 * bursts (one 5 ms window moved such a thread), which never last three. A
 * window ten times over the limit (a switch every 50 us of CPU time at the
 * default) is no burst of preemptions: it moves the thread at once (three
 * windows cost quicksort_critical 0.1 s, 15% of its time). */
#define SWITCH_WINDOW_NS      5000000ull
#define SWITCH_WINDOWS_IN_ROW 3u
#define SWITCH_FAR_OVER       10u

/* Default limit, context switches (voluntary and involuntary) per CPU-second.
 * A busy thread on an oversubscribed core is preempted at the end of each
 * slice: about 630 times per CPU-second here (1.5 ms slices on 2 cores);
 * three times that keeps such threads on their perf events (about 1% cost)
 * while threads that yield or block thousands of times per CPU-second (libomp
 * yields in its waits when threads outnumber cores: 375,000 per CPU-second
 * in a quicksort spinning through a critical) move. */
#define SWITCH_LIMIT_DEFAULT 2000u

struct switch_watch {
  uint64_t cpu_ns;   /* CPU time counted in the current window */
  uint64_t switches; /* the thread's context switches when the window began */
  uint8_t started;   /* a window has begun */
  uint8_t over;      /* windows in a row above the limit */
  uint8_t moved;     /* the thread left its perf event for a CPU-clock timer (kept across re-arming) */
};

/* The first window begins at the thread's switch count when its perf event
 * is enabled (without it, the first sample begins it). */
void switch_watch_begin(struct switch_watch *w, uint64_t switches); /* signal-safe */

/* Adds one sample's CPU time; 1 when the thread's switch count is wanted now:
 * the first sample of a watch not begun (the window begins) or a full window. */
int switch_watch_sample(struct switch_watch *w, uint64_t cpu_ns); /* signal-safe */

/* The thread's switch count, read because switch_watch_sample asked for it;
 * a new window begins. 1: the last SWITCH_WINDOWS_IN_ROW windows' rates were
 * each above `limit` per CPU-second, or this one's above SWITCH_FAR_OVER
 * times the limit: the thread should move; a limit of 0 never moves. */
int switch_watch_read(struct switch_watch *w, uint64_t switches, uint64_t limit); /* signal-safe */

/* The thread moved: no more windows (its timer costs nothing per switch). */
void switch_watch_moved(struct switch_watch *w); /* signal-safe */

#endif
