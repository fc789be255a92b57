/* Known answer (wall mode): in each of REGIONS parallel regions, thread t of T spends (1+2t)
 * units of UNIT seconds sleeping (MODE sleep: nanosleep, so wall time passes with the thread
 * off the CPU) or working (MODE work: spinning), then waits at the region's end barrier for
 * thread T-1's 2T-1 units. Per region: work (or sleep) T*T units in all, barrier waiting
 * T*(T-1) units; imbalance max/mean = (2T-1)/T, load balance T/(2T-1).
 * usage: imbalance_sleep sleep|work UNIT REGIONS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "omp_util.h"

volatile int units_done;

/* Not a tail call, so the frame is there to be seen. */
__attribute__((noinline)) void sleep_units(int n, double unit) {
  double seconds = n * unit;
  struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
  if (nanosleep(&ts, NULL) != 0) /* a profiler's signal must never cut it short */
    perror("nanosleep");
  units_done += n;
}

__attribute__((noinline)) void work_units(int n, double unit) {
  spin_for(n * unit);
  units_done += n;
}

int main(int argc, char **argv) {
  int sleeping = argc > 1 && strcmp(argv[1], "sleep") == 0;
  double unit = argc > 2 ? atof(argv[2]) : 0.02;
  int regions = argc > 3 ? atoi(argv[3]) : 5;
  double start = now_s();
  for (int r = 0; r < regions; r++) {
#pragma omp parallel
    {
      int n = 1 + 2 * omp_get_thread_num();
      if (sleeping)
        sleep_units(n, unit);
      else
        work_units(n, unit);
    }
  }
  printf("imbalance_sleep: %s, %d threads, %d units, %.3f s\n", sleeping ? "sleep" : "work", omp_get_max_threads(),
         units_done, now_s() - start);
  return 0;
}
