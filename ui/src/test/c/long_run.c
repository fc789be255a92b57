/* A long, light OpenMP program for long-run tests: `long_run SECONDS` repeats a cycle of a
 * parallel region (each thread works briefly in one of two functions, then a barrier) and a
 * sleep of the initial thread, until SECONDS of wall time have passed. Mostly waiting: run with
 * OMP_WAIT_POLICY=passive and wall-clock sampling sees every thread at the full rate while the
 * machine stays free. Prints the cycles done. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>
#include "omp_util.h"

__attribute__((noinline)) static void short_work(void) { spin_for(0.0002); }
__attribute__((noinline)) static void long_work(void) { spin_for(0.0005); }

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 10;
  double end = now_s() + seconds;
  long cycles = 0;
  while (now_s() < end) {
#pragma omp parallel
    {
      if (omp_get_thread_num() % 2) long_work();
      else short_work();
    }
    struct timespec left = {0, 8000000}; /* sampling signals interrupt the sleep: finish it */
    while (nanosleep(&left, &left) == -1 && errno == EINTR) {}
    cycles++;
  }
  printf("long_run: %ld cycles\n", cycles);
  return 0;
}
