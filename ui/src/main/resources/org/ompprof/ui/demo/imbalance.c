/* The ompprof demo: an OpenMP program with two classic problems.
 *  1. load imbalance: in each step thread t of T does t+1 units of work, so the
 *     others wait at the implicit barrier for the heaviest thread;
 *  2. a critical section that serializes the threads.
 * Built by `ompprof demo` with clang-19 -fopenmp -g. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static double work_units(int units) {
  volatile double x = 1.0;
  double end = now_s() + units * 0.01; /* a unit is 10 ms of computation */
  while (now_s() < end)
    for (int i = 0; i < 1000; i++) x = x * 1.0000001 + 1e-9;
  return x;
}

__attribute__((noinline)) static void heavy_phase(int steps) {
  for (int s = 0; s < steps; s++) {
#pragma omp parallel
    work_units(omp_get_thread_num() + 1);
  }
}

__attribute__((noinline)) static void update_table(double *table) {
  double end = now_s() + 0.005;
  while (now_s() < end) *table += 1.0;
}

__attribute__((noinline)) static void critical_phase(int rounds, double *table) {
#pragma omp parallel
  for (int r = 0; r < rounds; r++) {
    work_units(1);
#pragma omp critical(shared_table)
    update_table(table);
  }
}

int main(void) {
  double table = 0;
  double t0 = now_s();
  heavy_phase(20);
  critical_phase(40, &table);
  printf("demo: %d threads, %.2f s\n", omp_get_max_threads(), now_s() - t0);
  return 0;
}
