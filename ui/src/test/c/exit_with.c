/* Ends after a short parallel region: `exit_with N` exits with status N,
 * `exit_with signal S` kills itself with signal S, `exit_with sleep S` sleeps S seconds
 * in a parallel region (waits to be interrupted). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <omp.h>
#include "omp_util.h"

int main(int argc, char **argv) {
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
