/*
 * Undeferred tasks: a recursion cut off with an if clause, as task codes limit their task
 * counts. Each thread of the region runs ROUNDS trees of depth DEPTH; every node creates its two
 * children as tasks whose if clause is false below the cut-off (here: always), so the creating
 * code runs each child at once, and each leaf spins MS milliseconds in leaf_work. Built without
 * frame pointers (as release builds are), libomp reports such a task's frames from whatever rbp
 * held. Known answer: every sample in leaf_work lies under main, the region, DEPTH + 1 calls of
 * tree and leaf_work; the threads do threads x ROUNDS x 2^DEPTH x MS ms of work.
 *   usage: undeferred_tasks [ROUNDS] [DEPTH] [MS]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_util.h"

static int cutoff = 1 << 30; /* depths above it create deferred tasks: none */

__attribute__((noinline)) static double leaf_work(double ms)
{
  spin_for(ms / 1e3);
  return ms;
}

__attribute__((noinline)) static double tree(int depth, double ms)
{
  if (depth == 0)
    return 2 * leaf_work(ms); /* not a tail call: tree(0) keeps its frame */
  double left = 0, right = 0;
#pragma omp task if (depth > cutoff) shared(left)
  left = tree(depth - 1, ms);
#pragma omp task if (depth > cutoff) shared(right)
  right = tree(depth - 1, ms);
#pragma omp taskwait
  return left + right;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 20, depth = argc > 2 ? atoi(argv[2]) : 4;
  double ms = argc > 3 ? atof(argv[3]) : 1, sum = 0;
  int threads = 1;
#pragma omp parallel reduction(+ : sum)
  {
#pragma omp single
    threads = omp_get_num_threads();
    for (int r = 0; r < rounds; r++)
      sum += tree(depth, ms);
  }
  printf("undeferred_tasks: %d threads, %d rounds of %d leaves, %g ms each (%g)\n", threads, rounds, 1 << depth, ms,
         sum);
  return 0;
}
