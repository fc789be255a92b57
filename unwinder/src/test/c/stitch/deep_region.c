/*
 * Known answer: a parallel region opened under six 48 KiB frames (as a library's parallel loop
 * runs under deep callers). Every thread's samples in leaf belong under the region's creation
 * context: main;descend x6;region;region.omp_outlined;leaf. The creation context is nearly
 * 300 KiB of stack: the agent walks it when the region begins, as it walks samples.
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

__attribute__((noinline)) void region(double secs)
{
#pragma omp parallel
  sink[omp_get_thread_num()] += leaf(secs);
}

__attribute__((noinline)) double descend(int depth, double secs)
{
  volatile char buf[FRAME_BYTES];
  /* a page at a time, with a stride the compiler cannot see: the whole buffer stays on the stack */
  for (int i = 0; i < FRAME_BYTES; i += page)
    buf[i] = (char)depth;
  buf[FRAME_BYTES - 1] = (char)depth;
  if (depth > 1)
    sink[100] += descend(depth - 1, secs);
  else
    region(secs);
  return buf[0] + buf[FRAME_BYTES - 1];
}

int main(int argc, char **argv)
{
  double secs = argc > 1 ? atof(argv[1]) : 0.5;
  sink[101] += descend(6, secs);
  printf("%d\n", sink[101] != 0);
  return 0;
}
