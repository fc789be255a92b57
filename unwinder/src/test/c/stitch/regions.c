/*
 * Known answers for the stitcher (a), (e), (f):
 *   phase 1: main -> compute -> parallel -> work            (both threads work)
 *   phase 2: main -> serial_work                             (the worker is idle)
 *   phase 3: main -> imbalance -> parallel -> region_fn      (thread 1 waits at region_fn's barrier)
 *   phase 4: main -> contend -> parallel -> locked           (threads wait in omp_set_lock)
 * Every function that must show up is noinline, and every call is followed by more work so
 * that none is a tail call (a tail call removes its caller's frame from the stack).
 */
#include <omp.h>
#include <stdio.h>
#include "spin.h"

__attribute__((noinline)) double work(double secs)
{
  double end = now() + secs, x = 0;
  while (now() < end)
    for (int i = 0; i < 200; i++) x += i * 0.5;
  return x;
}

__attribute__((noinline)) double serial_work(double secs) { return work(secs) + 1; }

__attribute__((noinline)) double compute(void)
{
  double s = 0;
#pragma omp parallel reduction(+ : s)
  s += work(0.3);
  return s + 1;
}

__attribute__((noinline)) void region_fn(void)
{
  int me = omp_get_thread_num();
  sink[me] += work(me == 0 ? 0.3 : 0.05);
#pragma omp barrier
  sink[me] += work(0.01);
}

__attribute__((noinline)) void imbalance(void)
{
#pragma omp parallel
  {
    region_fn();
    sink[omp_get_thread_num()] += 1;
  }
  sink[0] += 1;
}

omp_lock_t lock;

__attribute__((noinline)) void locked(void)
{
  omp_set_lock(&lock);
  sink[omp_get_thread_num()] += work(0.01);
  omp_unset_lock(&lock);
}

__attribute__((noinline)) void contend(void)
{
#pragma omp parallel
  {
    for (int i = 0; i < 8; i++) locked();
    sink[omp_get_thread_num()] += 1;
  }
  sink[0] += 1;
}

int main(void)
{
  omp_init_lock(&lock);
  double r = compute();
  r += serial_work(0.25);
  imbalance();
  contend();
  printf("%d\n", r > 0);
  return 0;
}
