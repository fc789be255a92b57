/* Each of two threads of a parallel region launches its own target region (on the host
 * device) from kernel_from(), REPS times: the device time must sit under the worker's path,
 * stitched under the code that opened the parallel region.
 * usage: offload_parallel [REPS] */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

enum { N = 1 << 19 };
static double data[2][N];

/* keeps each function's own frame on the stack: no tail calls */
#define NO_TAIL_CALL() __asm__ volatile("")

__attribute__((noinline)) static void kernel_from(int t) {
  double *x = data[t];
#pragma omp target teams distribute parallel for map(tofrom: x[0:N])
  for (int i = 0; i < N; i++) {
    double v = x[i];
    for (int k = 0; k < 100; k++) v = v * 1.0000001 + k;
    x[i] = v;
  }
  NO_TAIL_CALL();
}

__attribute__((noinline)) static void launch_parallel(void) {
#pragma omp parallel num_threads(2)
  {
    kernel_from(omp_get_thread_num());
    NO_TAIL_CALL();
  }
  NO_TAIL_CALL();
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  for (int r = 0; r < reps; r++) launch_parallel();
  printf("offload_parallel: %d devices, %g\n", omp_get_num_devices(), data[1][3]);
  return 0;
}
