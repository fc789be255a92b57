/*
 * Parallel regions whose whole body is one call: at -O2 clang makes the outlined body's call a
 * tail call (`jmp first_work`), so no frame of the outlined function is on any stack while the
 * body runs. Each of ROUNDS rounds opens two such regions in phase, the first spinning MS ms in
 * first_work on every thread, the second MS ms in second_work. Known answer: every sample in
 * first_work lies under main, phase, the first construct and first_work; every one in
 * second_work under main, phase, the second construct and second_work; each leaf has
 * threads x ROUNDS x MS ms of work.
 *   usage: tail_called_bodies [ROUNDS] [MS]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_util.h"

static double work_ms = 2;
static volatile int done; /* a store after the spin: no tail call out of the leaves */

__attribute__((noinline)) static void first_work(void)
{
  spin_for(work_ms / 1e3);
  done++;
}

__attribute__((noinline)) static void second_work(void)
{
  spin_for(work_ms / 1e3);
  done++;
}

__attribute__((noinline)) static void phase(void)
{
#pragma omp parallel
  first_work();
#pragma omp parallel
  second_work();
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 50;
  work_ms = argc > 2 ? atof(argv[2]) : 2;
  for (int r = 0; r < rounds; r++)
    phase();
  printf("tail_called_bodies: %d rounds of %g ms on %d threads (%d)\n", rounds, work_ms, omp_get_max_threads(),
         done);
  return 0;
}
