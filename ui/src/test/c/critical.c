/* A critical section that is the bottleneck: every thread enters it ROUNDS times and
 * holds it HOLD seconds, so with T threads each waits about (T-1)/T of the run.
 * usage: critical ROUNDS HOLD */
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

__attribute__((noinline)) static void crit_body(double seconds) { spin_for(seconds); }

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  double hold = argc > 2 ? atof(argv[2]) : 0.05;
#pragma omp parallel
  for (int r = 0; r < rounds; r++) {
#pragma omp critical(shared_table)
    crit_body(hold);
  }
  printf("critical: done\n");
  return 0;
}
