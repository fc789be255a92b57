/*
 * Known answer (b), run with OMP_MAX_ACTIVE_LEVELS=2: four threads in two inner teams, all
 * working in main -> outer_fn -> parallel -> middle -> inner_fn -> parallel -> inner_work.
 */
#include <omp.h>
#include <stdio.h>
#include "spin.h"

__attribute__((noinline)) double inner_work(double secs)
{
  double end = now() + secs, x = 0;
  while (now() < end)
    for (int i = 0; i < 200; i++) x += i * 0.5;
  return x;
}

__attribute__((noinline)) void inner_fn(void)
{
#pragma omp parallel num_threads(2)
  {
    sink[omp_get_ancestor_thread_num(1) * 2 + omp_get_thread_num()] += inner_work(0.3);
  }
  sink[100] += 1;
}

__attribute__((noinline)) void middle(void)
{
  inner_fn();
  sink[101] += 1;
}

__attribute__((noinline)) void outer_fn(void)
{
#pragma omp parallel num_threads(2)
  {
    middle();
    sink[102 + omp_get_thread_num()] += 1;
  }
  sink[104] += 1;
}

int main(void)
{
  outer_fn();
  printf("%d\n", omp_get_max_active_levels());
  return 0;
}
