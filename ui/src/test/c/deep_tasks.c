/* Known answer (deep task recursion, as in a graph search that spawns a task per visited node):
 * a chain of DEPTH nested tasks, each created by the one before it at one construct, the last
 * spinning SECONDS in leaf_work. Every sample in leaf_work lies under main, the region, and
 * DEPTH creations of the same task in descend: a path of thousands of frames, folded by the
 * profiler beyond its depth limit onto the level it repeats.
 * usage: deep_tasks DEPTH SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

static volatile int leaves;

/* Not a tail call: its frame stays on the stack while it spins. */
__attribute__((noinline)) void leaf_work(double seconds) {
  spin_for(seconds);
  leaves++;
}

__attribute__((noinline)) void descend(int depth, double seconds) {
  if (depth == 0) {
    leaf_work(seconds);
    return;
  }
#pragma omp task firstprivate(depth, seconds)
  descend(depth - 1, seconds);
#pragma omp taskwait
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 3000;
  double seconds = argc > 2 ? atof(argv[2]) : 0.5;
#pragma omp parallel
#pragma omp single
  descend(depth, seconds);
  printf("deep_tasks: %d levels\n", depth);
  return 0;
}
