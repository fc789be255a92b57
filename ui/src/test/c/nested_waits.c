/* Known answer (blame e): waits at two levels. Two outer threads each open an inner team of
 * two; in every inner team thread t does t+1 units in inner_work (inner thread 0 waits one unit
 * at the inner barrier, blamed on inner_work), then outer thread o does o*EXTRA units in
 * outer_extra (outer thread 0 waits at the outer barrier, blamed on outer_extra).
 * With TEAM (default 2), teams of TEAM threads at both levels.
 * usage: nested_waits UNIT EXTRA_UNITS ROUNDS [TEAM] (run with OMP_MAX_ACTIVE_LEVELS=2) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int done;
static int team = 2;

__attribute__((noinline)) void inner_work(int units, double unit) { spin_for(units * unit); done++; }
__attribute__((noinline)) void outer_extra(int units, double unit) { spin_for(units * unit); done++; }

__attribute__((noinline)) void middle(int outer, double unit, int extra) {
#pragma omp parallel num_threads(team)
  inner_work(omp_get_thread_num() + 1, unit);
  outer_extra(outer * extra, unit);
}

int main(int argc, char **argv) {
  double unit = argc > 1 ? atof(argv[1]) : 0.05;
  int extra = argc > 2 ? atoi(argv[2]) : 2;
  int rounds = argc > 3 ? atoi(argv[3]) : 3;
  team = argc > 4 ? atoi(argv[4]) : 2;
  for (int r = 0; r < rounds; r++) {
#pragma omp parallel num_threads(team)
    middle(omp_get_thread_num(), unit, extra);
  }
  printf("nested_waits: %d\n", done);
  return 0;
}
