/* Known answer (blame b): a critical section that is the bottleneck. Every thread enters it
 * ROUNDS times and holds it HOLD seconds in crit_body: T x ROUNDS x HOLD of holding, during
 * which the other T-1 threads wait, so about (T-1) x T x ROUNDS x HOLD of waiting in all, and
 * all of it belongs to crit_body, the holder's context.
 * usage: critical_body ROUNDS HOLD */
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int entries;

__attribute__((noinline)) void crit_body(double seconds) {
  spin_for(seconds);
  entries++;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  double hold = argc > 2 ? atof(argv[2]) : 0.02;
#pragma omp parallel
  for (int r = 0; r < rounds; r++) {
#pragma omp critical(shared_table)
    crit_body(hold);
  }
  printf("critical_body: %d entries\n", entries);
  return 0;
}
