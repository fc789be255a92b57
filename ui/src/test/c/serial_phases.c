/* Known answer (serial time): ROUNDS rounds of a parallel region where every thread works
 * PAR seconds, then serial_setup() on the initial thread alone for SER seconds, while the
 * other threads idle: (T-1) * ROUNDS * SER of idle thread time, caused by serial_setup.
 * usage: serial_phases PAR SER ROUNDS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int setups;

/* Not a tail call, so the frame is there to be named. */
__attribute__((noinline)) static void serial_setup(double seconds) {
  spin_for(seconds);
  setups++;
}

int main(int argc, char **argv) {
  double par = argc > 1 ? atof(argv[1]) : 0.05;
  double ser = argc > 2 ? atof(argv[2]) : 0.2;
  int rounds = argc > 3 ? atoi(argv[3]) : 3;
  for (int r = 0; r < rounds; r++) {
#pragma omp parallel
    spin_for(par);
    serial_setup(ser);
  }
  printf("serial_phases: %d threads, %d rounds\n", omp_get_max_threads(), rounds);
  return 0;
}
