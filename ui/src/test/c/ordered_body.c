/* Known answer (blame d): an ordered loop whose ordered part is the bottleneck. Two threads
 * take iterations round-robin; each iteration spends HOLD in ordered_body, so while one thread
 * is in it the other waits for its turn (wait_ordered), and that waiting belongs to
 * ordered_body, the holder's context.
 * usage: ordered_body ITERATIONS HOLD */
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int done;

__attribute__((noinline)) void ordered_body(double s) { spin_for(s); done++; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  double hold = argc > 2 ? atof(argv[2]) : 0.02;
#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    ordered_body(hold);
  }
  printf("ordered_body: %d\n", done);
  return 0;
}
