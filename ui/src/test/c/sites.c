/* Known answer (regions): regions told apart by their construct, counted in all, called from the right line.
 * phase() opens three regions: `light`, where every thread works 1 unit, `heavy`, where thread 0 works 3 and
 * the others 1 (they wait 2 at its end, caused by thread 0's work in it), and `own`, where thread 0 works 5, in a loop
 * of the region's own code (the line marked `own loop`); then calls helper(), whose region has
 * thread 0 work 6 units and the others none (more waiting than heavy's, outside it: blamed on work(), not on
 * heavy()).
 * main calls phase() once with a unit 50 times smaller (its regions seldom sampled) at the line marked `warm`,
 * then ROUNDS times at the line marked `loop`; and serial() at the line marked `serial`, for longer than the
 * phases: main's line with the most time under it.
 * Each region is one row of the report, opened ROUNDS + 1 times; heavy's waiting is blamed on its own work.
 * usage: sites UNIT ROUNDS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int units_done;

__attribute__((noinline)) void work(int n, double unit) {
  spin_for(n * unit);
  units_done += n;
}

/* heavy's own work, by a name of its own: what its waiting is blamed on */
__attribute__((noinline)) void heavy(int n, double unit) {
  spin_for(n * unit);
  units_done += n;
}

__attribute__((noinline)) void helper(double unit) {
#pragma omp parallel /* helper */
  work(omp_get_thread_num() == 0 ? 6 : 0, unit);
}

/* Loop iterations a unit takes, measured once: the `own` region works in its body, calling nothing. */
static unsigned long unit_iterations(double unit) {
  volatile unsigned long sink = 0;
  unsigned long n = 0;
  double end = now_s() + unit;
  while (now_s() < end)
    for (int i = 0; i < 1000; i++, n++) sink += i;
  return n;
}

__attribute__((noinline)) void phase(double unit, unsigned long iterations) {
#pragma omp parallel /* light */
  work(1, unit);
#pragma omp parallel /* heavy */
  heavy(omp_get_thread_num() == 0 ? 3 : 1, unit);
#pragma omp parallel /* own */
  {
    volatile unsigned long sink = 0;
    unsigned long n = (omp_get_thread_num() == 0 ? 5 : 1) * iterations;
    for (unsigned long i = 0; i < n; i++) sink += i; /* own loop */
  }
  helper(unit);
}

__attribute__((noinline)) void serial(double unit) {
  work(12, unit);
}

int main(int argc, char **argv) {
  double unit = argc > 1 ? atof(argv[1]) : 0.002;
  int rounds = argc > 2 ? atoi(argv[2]) : 20;
  unsigned long iterations = unit_iterations(unit);
  phase(unit / 50, iterations / 50); /* warm */
  for (int r = 0; r < rounds; r++) {
    phase(unit, iterations); /* loop */
    serial(unit); /* serial */
  }
  printf("sites: %d threads, %d units\n", omp_get_max_threads(), units_done);
  return 0;
}
