/* Ends after a short parallel region: `exit_with N` exits with status N,
 * `exit_with signal S` kills itself with signal S, `exit_with sleep S` sleeps S seconds
 * in a parallel region (waits to be interrupted), `exit_with inside` opens 30 regions of 1 ms
 * from one place in step(), then one of 0.5 s from there, inside which thread 0 ends the
 * program with _exit(4) (no exit handlers: as a program killed there) once it has spun. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <omp.h>
#include "omp_util.h"

__attribute__((noinline)) static void step(int last) {
#pragma omp parallel
  {
    spin_for(last ? 0.5 : 0.001);
    if (last && omp_get_thread_num() == 0)
      _exit(4);
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "inside") == 0) {
    for (int i = 0; i <= 30; i++)
      step(i == 30);
    return 0;
  }
#pragma omp parallel
  spin_for(0.2);
  if (argc > 2 && strcmp(argv[1], "signal") == 0) {
    fflush(stdout);
    raise(atoi(argv[2]));
  }
  if (argc > 2 && strcmp(argv[1], "sleep") == 0) {
    printf("sleeping\n");
    fflush(stdout);
#pragma omp parallel
    {
      /* a handled signal (such as a profiler's) ends nanosleep early with EINTR: sleep it out */
      struct timespec left = {atoi(argv[2]), 0};
      if (omp_get_thread_num() == 0)
        while (nanosleep(&left, &left) != 0 && errno == EINTR) {
        }
    }
    return 0;
  }
  return argc > 1 ? atoi(argv[1]) : 0;
}
