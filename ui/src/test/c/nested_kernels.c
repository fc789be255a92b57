/* TeaLeaf's shape: a solver's region over tiles, one tile a thread, each tile's kernel opening
 * a region of its own, nested and inactive (one thread). `nested_kernels STEPS MS`: STEPS outer
 * instances, MS milliseconds of each thread's work in its kernel's region per instance; the
 * outer region's own code does nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "omp_util.h"

__attribute__((noinline)) static void kernel(double ms) {
#pragma omp parallel
  spin_for(ms / 1e3);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 1000;
  double ms = argc > 2 ? atof(argv[2]) : 0.5;
  int tiles = omp_get_max_threads();
  for (int step = 0; step < steps; step++) {
#pragma omp parallel for
    for (int t = 0; t < tiles; t++) kernel(ms);
  }
  printf("nested_kernels: %d steps of %.2f ms\n", steps, ms);
  return 0;
}
