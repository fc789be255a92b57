/* One thread busy on the CPU for a given CPU time (default 1 s), after an OpenMP region has
 * started the runtime (and the tool). Prints the thread's CPU time spent in the loop and the
 * loop's CLOCK_MONOTONIC bounds, which the samples' times share.
 * usage: cpu_busy [CPU_SECONDS] */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long ns(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((noinline)) static void burn(long long cpu_ns) {
  volatile unsigned long sink = 0;
  long long end = ns(CLOCK_THREAD_CPUTIME_ID) + cpu_ns;
  while (ns(CLOCK_THREAD_CPUTIME_ID) < end)
    for (int i = 0; i < 1000; i++) sink += i;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  int threads = 0;
#pragma omp parallel num_threads(1)
  threads = omp_get_num_threads();
  long long m0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_THREAD_CPUTIME_ID);
  burn((long long)(seconds * 1e9));
  long long c1 = ns(CLOCK_THREAD_CPUTIME_ID), m1 = ns(CLOCK_MONOTONIC);
  printf("tid %d threads %d cpu_ns %lld start_ns %lld end_ns %lld\n", gettid(), threads, c1 - c0, m0, m1);
  return 0;
}
