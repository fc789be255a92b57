/* Known answer (task scheduling): one thread creates N tasks with an empty body, one after
 * another and without a cut-off, while the others take them from its queue at the end of the
 * single. The loop does nothing but call the runtime's task entries (allocate, queue), so the
 * creating thread's time in the loop, which the program measures itself, is the runtime's task
 * scheduling time; but for the tasks the runtime runs at once when the creating thread's queue
 * is full. usage: task_create N */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

static void make_tasks(long n) {
  for (long i = 0; i < n; i++) {
#pragma omp task
    sink++;
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  double loop = 0;
#pragma omp parallel
#pragma omp single
  {
    double t0 = omp_get_wtime();
    make_tasks(n);
    loop = omp_get_wtime() - t0;
  }
  printf("task_create: %ld tasks\nledger: task creation loop %.3f ms\n", n, loop * 1e3);
  return 0;
}
