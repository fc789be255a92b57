/*
 * Known answer (f): task-parallel Fibonacci, one explicit task per call above the cutoff:
 * fib(N) creates 2 fib(N+1) - 2 tasks (1.66 million for N = 29), all at two creation sites in
 * one recursive context. Every sample in fib must lie under main;run;run.omp_outlined
 * (the single construct's region) followed only by fib frames, through the tasks' stitched
 * creation contexts.
 * usage: fib [N=26] (the tests use 26: 318,000 tasks; the benchmark 29)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long fib(int n)
{
  if (n < 2)
    return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

__attribute__((noinline)) long run(int n)
{
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n);
  return r;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 26;
  double t0 = omp_get_wtime();
  long r = run(n);
  printf("fib(%d) = %ld, elapsed %.6f s\n", n, r, omp_get_wtime() - t0);
  return 0;
}
