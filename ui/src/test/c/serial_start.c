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


static volatile int done;

/* Spins until the calling thread has run `ms` of CPU time: the known answer in cpu mode whatever the load (a loaded
 * machine stretches the wall time, which wall mode's tolerance allows for). */
__attribute__((noinline)) static void cpu_spin(double ms)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  double end = t.tv_sec + t.tv_nsec * 1e-9 + ms / 1e3, now;
  volatile unsigned long sink = 0;
  do {
    for (int i = 0; i < 1000; i++)
      sink += i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    now = t.tv_sec + t.tv_nsec * 1e-9;
  } while (now < end);
}

__attribute__((noinline)) static void serial_setup(double ms)
{
  cpu_spin(ms);
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
  cpu_spin(ms);
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
