/* Spins in a parallel region and a critical section; with argument "unlink" it first deletes
 * its own executable, so the recorder must capture the image through the agent's held fd. */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static double spin(double seconds) {
  double x = 0, t0 = now();
  while (now() - t0 < seconds) x += 1e-9;
  return x;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "unlink") == 0) unlink(argv[0]);
  double sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    sum += spin(0.3);
#pragma omp critical
    sum += spin(0.02);
  }
  printf("selfdelete: %d threads, %g\n", omp_get_max_threads(), sum);
  return 5;
}
