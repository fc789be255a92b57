/* Known answer (wall mode): in each of ROUNDS rounds inside one parallel region, one thread
 * (the producer, in a single) opens a taskgroup and creates eight tasks; task k sleeps (MODE
 * sleep) or spins (MODE work) k units of UNIT seconds: 36 units of task work per round, all
 * under task_units, created in make_tasks. The other threads wait at the single's end barrier
 * and run tasks there; the producer runs tasks while it waits at the taskgroup's end.
 *
 * The schedule on paper: libomp's producer takes its newest task (the deque's tail), a thief
 * the oldest (its head). The tasks are created in the order 1 3 5 4 8 7 2 6, chosen so that
 * no producer and thief ever reach for the last tasks at the same moment: who runs what does
 * not depend on who wins a race, and the producer runs out of tasks first.
 *   T=2: producer 6, 2, 7 (15 units), thief 1, 3, 5, 4, 8 (21): a round takes 21 units; the
 *        producer waits 6 at the taskgroup's end, the thief 0 at the barrier.
 *   T=4: producer 6; thieves 1, 4 and 7 | 3, 8 | 5, 2 (or 1, 4, 2 | 5, 7): a round takes 12
 *        units; the producer waits 6 at the taskgroup's end, the thieves 0+1+5 = 6 at the
 *        barrier.
 * It prints its own ledger too: task work, the producer's waiting at the taskgroup's end, the
 * others' at the barrier, by its clocks.
 * usage: taskgroup_sleep sleep|work UNIT ROUNDS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "omp_util.h"

static const int ORDER[8] = {1, 3, 5, 4, 8, 7, 2, 6};

volatile int units_done, rounds_done;

/* The run's own ledger, by its clocks: what the schedule really was. Spinning threads on more
 * threads than cores, and a busy machine, delay steals and task ends: then the waiting moves
 * between the producer and the others, and a round runs longer, whatever the paper says. */
#define MAX_THREADS 256
static double busy[MAX_THREADS]; /* this round's time in tasks, per thread (each writes its own) */
static double ledger_work, ledger_taskgroup, ledger_barrier;

/* Not a tail call, so the frame is there to be seen. */
__attribute__((noinline)) void task_units(int sleeping, int n, double unit) {
  double t0 = now_s();
  if (sleeping) {
    double seconds = n * unit;
    struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    if (nanosleep(&ts, NULL) != 0) /* a profiler's signal must never cut it short */
      perror("nanosleep");
  } else {
    spin_for(n * unit);
  }
#pragma omp atomic
  units_done += n;
  busy[omp_get_thread_num() % MAX_THREADS] += now_s() - t0;
}

/* The producer: the tasks' creation context, and where it waits for them (not by a tail
 * call, so the frame is there to be seen in the wait too). */
__attribute__((noinline)) void make_tasks(int sleeping, double unit) {
  int me = omp_get_thread_num(), threads = omp_get_num_threads();
  for (int t = 0; t < threads && t < MAX_THREADS; t++) busy[t] = 0; /* nobody runs a task yet */
  double start = now_s();
#pragma omp taskgroup
  {
    for (int i = 0; i < 8; i++) {
      int n = ORDER[i];
#pragma omp task firstprivate(n)
      task_units(sleeping, n, unit);
    }
  }
  double round = now_s() - start; /* the taskgroup's end: every task has finished */
  for (int t = 0; t < threads && t < MAX_THREADS; t++) {
    ledger_work += busy[t];
    if (t == me)
      ledger_taskgroup += round - busy[t];
    else
      ledger_barrier += round - busy[t];
  }
  rounds_done++;
}

int main(int argc, char **argv) {
  int sleeping = argc > 1 && strcmp(argv[1], "sleep") == 0;
  double unit = argc > 2 ? atof(argv[2]) : 0.03;
  int rounds = argc > 3 ? atoi(argv[3]) : 4;
#pragma omp parallel /* the threads start here (each thread's first moments are slow), not in the first round */
  units_done = 0;
  double start = now_s();
#pragma omp parallel
  for (int r = 0; r < rounds; r++) {
#pragma omp single
    make_tasks(sleeping, unit);
  }
  double elapsed = now_s() - start;
  printf("taskgroup_sleep: %s, %d threads, %d units, %.1f units a round\n", sleeping ? "sleep" : "work",
         omp_get_max_threads(), units_done, elapsed / rounds / unit);
  printf("ledger: task work %.1f ms, taskgroup waiting %.1f ms, barrier waiting %.1f ms\n", ledger_work * 1e3,
         ledger_taskgroup * 1e3, ledger_barrier * 1e3);
  return 0;
}
