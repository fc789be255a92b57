/* Known answer (wall mode): a loop whose every iteration is one ordered section of one unit
 * (UNIT seconds sleeping, MODE sleep, or spinning, MODE work): ROUNDS x T iterations dealt
 * round-robin (schedule(static,1)) to T threads run one after another, so each thread works
 * 1/T of the time (serialization 1/T). On paper, in units: work ROUNDS*T (under
 * ordered_unit); thread t waits t units for its first turn and T-1 for each later one, then
 * T-1-t at the loop's end barrier: ordered waiting T(T-1)/2 + T(ROUNDS-1)(T-1), barrier
 * waiting T(T-1)/2; all waiting ROUNDS*T*(T-1). Prints the units' own time, summed as each ran: a
 * unit the machine stalled (a host that took the CPU away) lasts longer than UNIT, and so does the
 * waiting for it.
 * usage: ordered_sleep sleep|work UNIT ROUNDS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "omp_util.h"

volatile int units_done;
static double units_s; /* written inside the ordered section only: one unit at a time */

/* Not a tail call, so the frame is there to be seen. */
__attribute__((noinline)) void ordered_unit(int sleeping, double unit) {
  if (sleeping) {
    struct timespec ts = {(time_t)unit, (long)((unit - (time_t)unit) * 1e9)};
    if (nanosleep(&ts, NULL) != 0) /* a profiler's signal must never cut it short */
      perror("nanosleep");
  } else {
    spin_for(unit);
  }
  units_done++;
}

int main(int argc, char **argv) {
  int sleeping = argc > 1 && strcmp(argv[1], "sleep") == 0;
  double unit = argc > 2 ? atof(argv[2]) : 0.02;
  int rounds = argc > 3 ? atoi(argv[3]) : 5;
  int n = rounds * omp_get_max_threads();
  double start = now_s();
#pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    {
      double t0 = now_s();
      ordered_unit(sleeping, unit);
      units_s += now_s() - t0;
    }
  }
  printf("ordered_sleep: %s, %d threads, %d units, %.3f s, units took %.6f s\n", sleeping ? "sleep" : "work",
         omp_get_max_threads(), units_done, now_s() - start, units_s);
  return 0;
}
