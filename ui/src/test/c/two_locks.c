/* Known answer (blame c): two locks, each held in its own function while the other thread
 * waits for it from its own function. Per round, thread 0 holds A in hold_a for HOLD while
 * thread 1 waits in take_a; then thread 1 holds B in hold_b while thread 0 waits in take_b.
 * So the lock waiting under take_a is blamed on hold_a, that under take_b on hold_b.
 * usage: two_locks ROUNDS HOLD */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

static omp_lock_t a, b;
volatile int work_done;

__attribute__((noinline)) void hold_a(double s) { spin_for(s); work_done++; }
__attribute__((noinline)) void hold_b(double s) { spin_for(s); work_done++; }
__attribute__((noinline)) void take_a(void) { omp_set_lock(&a); omp_unset_lock(&a); work_done++; }
__attribute__((noinline)) void take_b(void) { omp_set_lock(&b); omp_unset_lock(&b); work_done++; }

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  double hold = argc > 2 ? atof(argv[2]) : 0.05;
  omp_init_lock(&a);
  omp_init_lock(&b);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int r = 0; r < rounds; r++) {
      if (me == 0) omp_set_lock(&a); else omp_set_lock(&b);
#pragma omp barrier
      if (me == 0) { hold_a(hold); omp_unset_lock(&a); take_b(); }
      else { take_a(); hold_b(hold); omp_unset_lock(&b); }
#pragma omp barrier
    }
  }
  printf("two_locks: %d\n", work_done);
  return 0;
}
