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
#pragma omp parallel
  spin_for(seconds);
  printf("spin: %d threads, %.3f s\n", omp_get_max_threads(), now_s() - t0);
  return 0;
}
