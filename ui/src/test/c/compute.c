/* A fixed amount of CPU-bound work (not a fixed time), split statically over the
 * threads: the benchmark program for profiler overhead. Prints its own elapsed time.
 * usage: compute ITERATIONS_MILLIONS */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "omp_util.h"

__attribute__((noinline)) static double kernel(long i) {
  double x = (double)i;
  for (int k = 0; k < 8; k++) x = sqrt(x * 1.000001 + k) + 0.5;
  return x;
}

int main(int argc, char **argv) {
  long n = (long)((argc > 1 ? atof(argv[1]) : 50.0) * 1e6);
  double sum = 0, t0 = now_s();
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (long i = 0; i < n; i++) sum += kernel(i);
  printf("compute: %d threads, checksum %.6e, elapsed %.6f s\n", omp_get_max_threads(), sum, now_s() - t0);
  return 0;
}
