/*
 * Known answer for deep stacks, on the initial thread after one short parallel region (which
 * starts the runtime and the profiler): run calls descend, which holds a 48 KiB buffer (as image
 * and path buffers are in real libraries) and calls itself six deep before leaf spins:
 * main;run;descend x6;leaf, about 300 KiB of stack. Then deep recurses 300 deep before its own
 * leaf: main;deep;recurse x301;spin;leaf. A 16 KiB stack copy reaches neither main.
 *   usage: deep_stacks SECONDS_EACH
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define FRAME_BYTES (48 * 1024)
static volatile int page = 4096;

static volatile double sink;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

__attribute__((noinline)) double leaf(double secs)
{
  double end = now() + secs, x = 0;
  while (now() < end)
    for (int i = 0; i < 200; i++) x += i * 0.5;
  return x;
}

__attribute__((noinline)) double spin(double secs)
{
  return leaf(secs) + 1;
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
  sink += descend(6, secs);
}

__attribute__((noinline)) double recurse(int depth, double secs)
{
  volatile char pad[100];
  for (int i = 0; i < 100; i++)
    pad[i] = (char)(depth + i);
  double r = depth > 0 ? recurse(depth - 1, secs) : spin(secs);
  return r + pad[depth % 100];
}

__attribute__((noinline)) void deep(double secs)
{
  sink += recurse(300, secs);
}

int main(int argc, char **argv)
{
  double secs = argc > 1 ? atof(argv[1]) : 0.5;
#pragma omp parallel
  sink += omp_get_thread_num();
  run(secs);
  deep(secs);
  printf("%d\n", sink != 0);
  return 0;
}
