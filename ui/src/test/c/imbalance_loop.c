/* Known answer (blame a): in each of REGIONS parallel regions, thread t of T does t+1 units
 * of UNIT seconds, then waits at the region's end barrier. Per region, thread t waits
 * (T-1-t) units; while j threads wait, their waiting is shared by the T-j still working, so
 * the heaviest thread is blamed for sum_{j=1}^{T-1} j/(T-j) units (1 for T=2, 13/3 for T=4).
 * usage: imbalance_loop UNIT REGIONS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int units_done;

/* Not a tail call, so the frame is there to be blamed. */
__attribute__((noinline)) void work_units(int n, double unit) {
  spin_for(n * unit);
  units_done += n;
}

int main(int argc, char **argv) {
  double unit = argc > 1 ? atof(argv[1]) : 0.05;
  int regions = argc > 2 ? atoi(argv[2]) : 4;
  for (int r = 0; r < regions; r++) {
#pragma omp parallel
    work_units(omp_get_thread_num() + 1, unit);
  }
  printf("imbalance_loop: %d threads, %d units\n", omp_get_max_threads(), units_done);
  return 0;
}
