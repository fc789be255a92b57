/*
 * Known answer: stack frames as big as image and path buffers are in real libraries. descend
 * holds 48 KiB of buffer and calls itself six deep before leaf spins, first in a parallel region
 * on every thread (main;run_parallel;run_parallel.omp_outlined;descend x6;leaf), then on the
 * initial thread alone (main;run;descend x6;leaf). Nearly 300 KiB of stack: a
 * 16 KiB copy of it reaches no further than the second descend.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "spin.h"

#define FRAME_BYTES (48 * 1024)
static volatile int page = 4096;

__attribute__((noinline)) double leaf(double secs)
{
  double end = now() + secs, x = 0;
  while (now() < end)
    for (int i = 0; i < 200; i++) x += i * 0.5;
  return x;
}

__attribute__((noinline)) double descend(int depth, double secs)
{
  volatile char buf[FRAME_BYTES];
  /* a page at a time, with a stride the compiler cannot see: the whole buffer stays on the stack
   * (with constant indices clang keeps only the bytes touched) */
  for (int i = 0; i < FRAME_BYTES; i += page)
    buf[i] = (char)depth;
  buf[FRAME_BYTES - 1] = (char)depth;
  double r = depth > 1 ? descend(depth - 1, secs) : leaf(secs);
  return r + buf[0] + buf[FRAME_BYTES - 1];
}

__attribute__((noinline)) void run(double secs)
{
  sink[101] += descend(6, secs);
}

__attribute__((noinline)) void run_parallel(double secs)
{
#pragma omp parallel
  sink[omp_get_thread_num()] += descend(6, secs);
}

int main(int argc, char **argv)
{
  double secs = argc > 1 ? atof(argv[1]) : 0.3;
  run_parallel(secs); /* first: the runtime, and with it the agent, starts with the first region */
  run(secs);
  printf("%d\n", sink[101] != 0);
  return 0;
}
