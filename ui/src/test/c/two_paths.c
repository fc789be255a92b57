/* Known answer (exact creation contexts): one construct in spawn() creates every task, and
 * spawn is called in turn from via_long() and via_short(), two callers with the same frame: a
 * creation through either has the same call site, the same stack depth and the same words but
 * one, the return address into its caller. A task created through via_long spins 2 units in
 * work, one through via_short 1 unit. Every sample in work lies under main, the region, one of
 * the two callers, spawn and the task; two thirds of them (by wall time) under via_long.
 * usage: two_paths PAIRS UNIT_SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

static volatile long sink;

__attribute__((noinline)) void work(double seconds) {
  spin_for(seconds);
  sink++;
}

/* Not a tail call into the runtime: its frame is there at the creation. */
__attribute__((noinline)) void spawn(double seconds) {
#pragma omp task firstprivate(seconds)
  work(seconds);
  sink++;
}

/* Not tail calls, and alike but for the length they ask: their frames are the same size. */
__attribute__((noinline)) void via_long(double unit) {
  spawn(2 * unit);
  sink += 2;
}

__attribute__((noinline)) void via_short(double unit) {
  spawn(unit);
  sink += 1;
}

int main(int argc, char **argv) {
  int pairs = argc > 1 ? atoi(argv[1]) : 300;
  double unit = argc > 2 ? atof(argv[2]) : 0.001;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < pairs; i++) {
    via_long(unit);
    via_short(unit);
  }
  printf("two_paths: %d pairs of tasks\n", pairs);
  return 0;
}
