/*
 * Serialized parallel regions: parallel constructs whose if clause is false, so the code that
 * meets them runs their bodies itself on one thread (clang: __kmpc_serialized_parallel, then the
 * outlined body), as codes skip the fork for small loops. Each of ROUNDS rounds runs one such
 * region spinning MS ms in alone_work, and one nested in another spinning MS ms in nested_work.
 * libomp reports such a region's implicit task with the exit frame of its own call, returned
 * before the body runs. Known answer: every sample in alone_work lies under main, serial_phase,
 * the region and alone_work; every one in nested_work under main, nested_phase, both regions and
 * nested_work; each leaf has ROUNDS x MS ms of work.
 *   usage: serialized_regions [ROUNDS] [MS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "omp_util.h"

static int parallel_wanted; /* 0: every region below is serialized */

__attribute__((noinline)) static double alone_work(double ms)
{
  spin_for(ms / 1e3);
  return ms;
}

__attribute__((noinline)) static double nested_work(double ms)
{
  spin_for(ms / 1e3);
  return ms;
}

__attribute__((noinline)) static double serial_phase(double ms)
{
  double sum = 0;
#pragma omp parallel if (parallel_wanted) reduction(+ : sum)
  sum += alone_work(ms);
  return 2 * sum;
}

__attribute__((noinline)) static double nested_phase(double ms)
{
  double sum = 0;
#pragma omp parallel if (parallel_wanted) reduction(+ : sum)
  {
#pragma omp parallel if (parallel_wanted) reduction(+ : sum)
    sum += nested_work(ms);
  }
  return 2 * sum;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 100;
  double ms = argc > 2 ? atof(argv[2]) : 2, sum = 0;
  for (int r = 0; r < rounds; r++)
    sum += serial_phase(ms) + nested_phase(ms);
  printf("serialized_regions: %d rounds of %g ms (%g)\n", rounds, ms, sum);
  return 0;
}
