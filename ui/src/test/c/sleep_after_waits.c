/*
 * Sleeps a program takes in its own code right after leaving an OpenMP construct, where the
 * thread was last seen in the runtime (a sample inside the wait) or in another task: after a
 * parallel region on the thread that opened it, after a barrier, after a taskwait in which
 * the thread ran children, after an undeferred task, after a nested region, after a critical
 * section. Each case naps ROUNDS times for MS ms on every thread that gets there, and prints
 * one line a nap: "CASE: thread T slept S of W s" with " SHORT" when the nap came back before
 * 99% of its time (a signal cut it short). A profiler must not change that.
 *   usage: sleep_after_waits [ROUNDS] [MS]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "omp_util.h"

static int ms = 150;

static void nap(const char *after)
{
  double t0 = now_s();
  usleep((useconds_t)ms * 1000u);
  double got = now_s() - t0, want = ms / 1e3;
  printf("%s: thread %d slept %.4f of %.4f s%s\n", after, omp_get_thread_num(), got, want,
         got < 0.99 * want ? " SHORT" : "");
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 2;
  ms = argc > 2 ? atoi(argv[2]) : ms;
  omp_set_max_active_levels(2);
  for (int r = 0; r < rounds; r++) {
#pragma omp parallel
    spin_for(0.05);
    nap("region");
#pragma omp parallel
    {
      spin_for(omp_get_thread_num() == 0 ? 0.1 : 0.005); /* the others wait at the barrier, sampled there */
#pragma omp barrier
      nap("barrier");
    }
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 64; i++) {
#pragma omp task
        spin_for(0.002);
      }
#pragma omp taskwait
      nap("taskwait");
    }
#pragma omp parallel
#pragma omp single
    {
#pragma omp task if (0)
      spin_for(0.02);
      nap("undeferred task");
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
      spin_for(0.02);
      nap("nested region");
    }
#pragma omp parallel
    {
#pragma omp critical
      spin_for(0.02);
      nap("critical");
    }
  }
  return 0;
}
