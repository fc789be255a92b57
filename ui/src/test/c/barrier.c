/* Thread 0 works WORK seconds before an explicit barrier; the others wait there.
 * usage: barrier WORK */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "omp_util.h"

__attribute__((noinline)) static void heavy(double seconds) { spin_for(seconds); }

int main(int argc, char **argv) {
  double work = argc > 1 ? atof(argv[1]) : 1.0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) heavy(work);
#pragma omp barrier
  }
  printf("barrier: done\n");
  return 0;
}
