/* Known answer (wall mode, threads outnumbering the CPUs): REGIONS parallel regions in which every
 * thread runs one piece of PIECE microseconds of CPU time in work_piece, then waits at the region's
 * end. Each thread times its pieces by the wall clock (a piece that waits for a CPU takes longer),
 * and the program prints the sum: the wall time the profile must show in work_piece. It also prints
 * the share of the CPUs it could use that it had (its CPU time over its wall time times the CPUs, or
 * the threads if fewer): below 1 when other processes competed for them.
 * usage: short_pieces REGIONS PIECE_US */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "omp_util.h"

#define MAX_THREADS 256

static double timed[MAX_THREADS];
volatile int pieces_done;

/* Not a tail call, so the frame is there to be seen. */
__attribute__((noinline)) void work_piece(double seconds) {
  spin_cpu_for(seconds);
  pieces_done++;
}

int main(int argc, char **argv) {
  int regions = argc > 1 ? atoi(argv[1]) : 2000;
  double piece = (argc > 2 ? atof(argv[2]) : 300) * 1e-6;
  double start = now_s();
  for (int r = 0; r < regions; r++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
      double t = now_s();
      work_piece(piece);
      if (me < MAX_THREADS)
        timed[me] += now_s() - t;
    }
  }
  double sum = 0;
  for (int i = 0; i < MAX_THREADS; i++)
    sum += timed[i];
  double wall = now_s() - start;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  long usable = sysconf(_SC_NPROCESSORS_ONLN);
  if (omp_get_max_threads() < usable)
    usable = omp_get_max_threads();
  printf("short_pieces: %d regions, pieces took %.1f ms, cpu share %.2f\n", regions, sum * 1e3, cpu / (wall * usable));
  return 0;
}
