/* Target regions offloaded to the host device (x86_64 offload image, loaded by libomptarget
 * from a temporary file): REPS kernels, each with IN doubles mapped to the device and OUT
 * floats mapped back, launched from launch_kernels() called by main.
 * usage: offload [REPS] */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

enum { IN = 1 << 20, OUT = 3 << 18 };
static double in[IN];
static float out[OUT];

__attribute__((noinline)) static void launch_kernels(int reps) {
  for (int r = 0; r < reps; r++) {
#pragma omp target teams distribute parallel for map(to: in[0:IN]) map(from: out[0:OUT])
    for (int i = 0; i < OUT; i++) {
      double x = in[i];
      for (int k = 0; k < 200; k++) x = x * 1.0000001 + r;
      out[i] = (float)x;
    }
  }
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 4;
  for (int i = 0; i < IN; i++) in[i] = i;
  launch_kernels(reps);
  printf("offload: %d devices, %d kernels, in %zu bytes, out %zu bytes, out[7] %.3f\n", omp_get_num_devices(), reps,
         sizeof(double) * IN, sizeof(float) * OUT, out[7]);
  return 0;
}
