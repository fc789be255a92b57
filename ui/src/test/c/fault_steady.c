/* A steady OpenMP program for fault tests: `fault_steady SECONDS STATUS` prints "started",
 * then ten steps whose sums depend only on the step (so every run prints the same), spread
 * over SECONDS of wall time, then "done", and exits with STATUS. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "omp_util.h"

__attribute__((noinline)) static long step_sum(int step) {
  long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100000; i++) sum += (long)i * step % 7;
  return sum;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1;
  int status = argc > 2 ? atoi(argv[2]) : 0;
  printf("started\n");
  fflush(stdout);
  for (int step = 1; step <= 10; step++) {
#pragma omp parallel
    spin_for(seconds / 10);
    printf("step %d sum %ld\n", step, step_sum(step));
    fflush(stdout);
  }
  printf("done\n");
  return status;
}
