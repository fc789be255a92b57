/* A region-heavy OpenMP program: `many_regions N [TERMS]` opens N short `parallel for` regions
 * one after another (each sums TERMS terms, 256 by default), so the agent's region callbacks and
 * the creation contexts they carry dominate what is recorded. Prints the regions opened, the sum
 * and the time the regions took (for scripts/bench-rates). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

__attribute__((noinline)) static double region(long r, int terms) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < terms; i++) sum += (double) ((r + i) % 7);
  return sum;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int terms = argc > 2 ? atoi(argv[2]) : 256;
  double total = 0, t0 = omp_get_wtime();
  for (long r = 0; r < n; r++) total += region(r, terms);
  printf("many_regions: %ld regions, sum %.0f, elapsed %.6f s\n", n, total, omp_get_wtime() - t0);
  return 0;
}
