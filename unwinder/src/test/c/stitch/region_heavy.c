/*
 * A region-heavy time-step loop, as proxy applications run it: STEPS steps, each a chain of
 * short `parallel for` loops (20,000 regions in all). step() opens them and is called
 * by two callers at the same stack depth: advance() (one unit of work per element) and
 * correct() (two units), so regions opened at one call site and frame address still have two
 * creation contexts that the stitcher must tell apart.
 *
 * Known answer: every worker sample in a region lies under main;advance;step or
 * main;correct;step, and correct's regions hold about twice advance's work.
 */
#include <stdio.h>
#include <stdlib.h>

enum { N = 512, STEPS = 5000 };
static double a[N], b[N];

#define NO_TAIL_CALL() __asm__ volatile("")

__attribute__((noinline)) static double kernel(double x, int units)
{
  for (int k = 0; k < 80 * units; k++) x = x * 0.999999 + 1e-9;
  return x;
}

__attribute__((noinline)) static void step(int units)
{
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) a[i] = kernel(a[i] + b[i], units);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) b[i] = kernel(b[i] - a[i], units);
  NO_TAIL_CALL();
}

__attribute__((noinline)) static void advance(void)
{
  step(1);
  NO_TAIL_CALL();
}

__attribute__((noinline)) static void correct(void)
{
  step(2);
  NO_TAIL_CALL();
}

int main(int argc, char **argv)
{
  int steps = argc > 1 ? atoi(argv[1]) : STEPS;
  for (int s = 0; s < steps; s++) {
    advance();
    correct();
  }
  printf("region_heavy: %d regions, a[7] %.6f\n", 4 * steps, a[7]);
  return 0;
}
