/*
 * Serial work before the program's first OpenMP construct, as real programs read their input
 * and set up: SERIAL_MS ms of CPU time spinning in serial_setup, then SLEEP_MS ms asleep in
 * serial_sleep (one nanosleep, its EINTRs counted and resumed), then one parallel region whose
 * threads spin PAR_MS ms of CPU time in parallel_work. Known answer: main;serial_setup has SERIAL_MS ms, main;serial_sleep
 * SLEEP_MS ms of wall time, the sleep is never interrupted (it prints the EINTRs it saw), and the
 * region's work is under main and its construct.
 *   usage: serial_start [SERIAL_MS] [SLEEP_MS] [PAR_MS]
 */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "omp_util.h"


static volatile int done;

__attribute__((noinline)) static void serial_setup(double ms)
{
  spin_cpu_for(ms / 1e3);
  done++;
}

__attribute__((noinline)) static int serial_sleep(double ms)
{
  struct timespec left = {(time_t)(ms / 1e3), (long)((ms - 1e3 * (time_t)(ms / 1e3)) * 1e6)};
  int interrupted = 0;
  while (nanosleep(&left, &left) == -1 && errno == EINTR)
    interrupted++;
  done++;
  return interrupted;
}

__attribute__((noinline)) static void parallel_work(double ms)
{
  spin_cpu_for(ms / 1e3);
  done++;
}

int main(int argc, char **argv)
{
  double serial = argc > 1 ? atof(argv[1]) : 300, sleep = argc > 2 ? atof(argv[2]) : 300,
         par = argc > 3 ? atof(argv[3]) : 200;
  serial_setup(serial);
  int interrupted = serial_sleep(sleep);
#pragma omp parallel
  parallel_work(par);
  printf("serial_start: %d threads, the sleep interrupted %d times (%d)\n", omp_get_max_threads(), interrupted, done);
  return 0;
}
