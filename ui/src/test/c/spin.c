/* Every thread spins for the same wall time: samples per thread = rate x seconds.
 * The tests build it with clang-19 and with gcc (run on libomp's GOMP entry points).
 * usage: spin SECONDS (threads from OMP_NUM_THREADS) */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "omp_util.h"

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  double t0 = now_s();
  double cpu[256] = {0};
#pragma omp parallel
  {
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    spin_for(seconds);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    int t = omp_get_thread_num();
    if (t < 256) cpu[t] = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
  }
  for (int t = 0; t < omp_get_max_threads() && t < 256; t++) printf("cpu thread %d: %.6f s\n", t, cpu[t]);
  printf("spin: %d threads, %.3f s\n", omp_get_max_threads(), now_s() - t0);
  return 0;
}
