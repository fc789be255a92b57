/*
 * The cost of a program's start under a profiler, where the program itself sees it: the time
 * of its first parallel region (the runtime starts, the workers are created, and a tool attaches
 * to each), against its second. It first sleeps SETTLE ms, untimed (a profiler's collector has
 * started by then).
 *   usage: first_region [SETTLE=300]
 *   prints: first region F ms, second S ms
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
  int settle = argc > 1 ? atoi(argv[1]) : 300;
  usleep(settle * 1000);
  volatile int sink = 0;
  double t0 = now_ms();
#pragma omp parallel
  sink += omp_get_thread_num();
  double t1 = now_ms();
#pragma omp parallel
  sink += omp_get_thread_num();
  double t2 = now_ms();
  printf("first region %.3f ms, second %.3f ms\n", t1 - t0, t2 - t1);
  return 0;
}
