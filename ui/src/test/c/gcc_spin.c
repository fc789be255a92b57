/* spin.c built with gcc: runs on libomp through its GOMP entry points.
 * usage: gcc_spin SECONDS */
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
