/* Known answer (task granularity): fib(N) with a task per call and no cut-off creates
 * 2 * (F(N+1) - 1) explicit tasks (two per call with n >= 2), each doing almost no work, so
 * the threads spend most of their time waiting in taskwait and in the runtime's task code.
 * usage: task_fib N */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 22;
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n);
  printf("task_fib: fib(%d) = %ld\n", n, r);
  return 0;
}
