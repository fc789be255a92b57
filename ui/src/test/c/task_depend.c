/*
 * Tasks with dependences: a wavefront over an N x N grid of blocks, each block's task waiting
 * for its upper and left neighbours' (depend in) and releasing its own (depend out), created by
 * one thread in a single construct. Each task spins MS milliseconds in cell_work. Known answer:
 * every sample in cell_work lies under main, the region, the task construct and cell_work; the
 * whole run does N x N x MS ms of work.
 *   usage: task_depend [N] [MS]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_util.h"

__attribute__((noinline)) static double cell_work(double ms, double up, double left)
{
  spin_for(ms / 1e3);
  return up + left + 1e-9;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 16;
  double ms = argc > 2 ? atof(argv[2]) : 2;
  double *grid = calloc((size_t)(n + 1) * (size_t)(n + 1), sizeof *grid);
  double t0 = now_s();
#pragma omp parallel
#pragma omp single
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      double *up = &grid[(i - 1) * (n + 1) + j], *left = &grid[i * (n + 1) + j - 1], *me = &grid[i * (n + 1) + j];
#pragma omp task depend(in : up[0], left[0]) depend(out : me[0]) firstprivate(up, left, me)
      *me = cell_work(ms, *up, *left);
    }
  printf("task_depend: %d x %d tasks of %.1f ms, %d threads, elapsed %.3f s, corner %g\n", n, n, ms,
         omp_get_max_threads(), now_s() - t0, grid[n * (n + 1) + n]);
  free(grid);
  return 0;
}
