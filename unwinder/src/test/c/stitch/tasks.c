/*
 * Known answer (c): explicit tasks created by producer() inside a single region run on both
 * threads, and their bodies belong under main -> run -> parallel -> producer.
 */
#include <omp.h>
#include <stdio.h>
#include "spin.h"

__attribute__((noinline)) double task_body(int i)
{
  double end = now() + 0.003, x = i;
  while (now() < end)
    for (int k = 0; k < 100; k++) x += k * 0.5;
  return x;
}

__attribute__((noinline)) void producer(int n)
{
  for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
    sink[omp_get_thread_num()] += task_body(i);
  }
  sink[200] += 1;
}

__attribute__((noinline)) void run(void)
{
#pragma omp parallel
  {
#pragma omp single
    producer(150);
    sink[100 + omp_get_thread_num()] += 1;
  }
  sink[0] += 1;
}

int main(void)
{
  run();
  printf("%d\n", sink[0] > 0);
  return 0;
}
