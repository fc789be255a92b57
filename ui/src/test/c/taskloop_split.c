/*
 * A taskloop big enough that libomp splits it: the thread that meets it creates tasks that split
 * the iterations further, other threads run them and create the chunks' tasks in the name of the
 * taskloop's own task, whose frames lie on the first thread's stack. ROUNDS rounds of CHUNKS
 * chunks of 4 iterations, each iteration spinning about US microseconds in chunk_work. Known
 * answer: every sample in chunk_work lies under main, the region, the taskloop's task construct
 * and chunk_work; what a creating thread cannot see of the creating task's frames is marked
 * truncated, never filled with the creating thread's own.
 *   usage: taskloop_split [ROUNDS] [CHUNKS] [US]
 */
#include <stdio.h>
#include <stdlib.h>

#include "omp_util.h"

__attribute__((noinline)) static double chunk_work(double us)
{
  spin_for(us / 1e6);
  return us;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 100, chunks = argc > 2 ? atoi(argv[2]) : 1024;
  double us = argc > 3 ? atof(argv[3]) : 2, sum = 0;
#pragma omp parallel reduction(+ : sum)
#pragma omp master
  for (int r = 0; r < rounds; r++) {
#pragma omp taskloop num_tasks(chunks) reduction(+ : sum)
    for (int i = 0; i < 4 * chunks; i++)
      sum += chunk_work(us);
  }
  printf("taskloop_split: %d rounds of %d chunks (%g)\n", rounds, chunks, sum);
  return 0;
}
