/*
 * Known answer (d): recursion from depth 0 to 300 inside a parallel region. A frame of rec is
 * over 100 bytes, so the deeper stacks do not fit the 16 KiB snapshot: their samples must be
 * marked truncated, the others complete, and the number of rec frames in a complete path is
 * always depth + 1 for one of the depths used (0, 10, ..., 300).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "spin.h"

__attribute__((noinline)) double leaf(double secs)
{
  double end = now() + secs, x = 0;
  while (now() < end)
    for (int i = 0; i < 200; i++) x += i * 0.5;
  return x;
}

__attribute__((noinline)) double rec(int depth, double secs)
{
  volatile char pad[100]; /* every byte used, or the compiler shrinks it */
  for (int i = 0; i < 100; i++)
    pad[i] = (char)(depth + i);
  if (depth == 0)
    return leaf(secs) + pad[depth % 100];
  return rec(depth - 1, secs) + pad[depth % 100];
}

__attribute__((noinline)) void deep(int rounds)
{
#pragma omp parallel
  {
    for (int r = 0; r < rounds; r++)
      for (int d = 0; d <= 300; d += 10)
        sink[omp_get_thread_num()] += rec(d, 0.02);
  }
  sink[100] += 1;
}

int main(int argc, char **argv)
{
  deep(argc > 1 ? atoi(argv[1]) : 1); /* more rounds: a longer run for benchmarks */
  printf("%d\n", sink[100] > 0);
  return 0;
}
