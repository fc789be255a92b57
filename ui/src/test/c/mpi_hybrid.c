/* An MPI + OpenMP job: each of STEPS steps, rank r computes (1 + r) units in a parallel
 * region (compute()), then all ranks meet in MPI_Allreduce (exchange()). Rank 0 waits about
 * one unit per step in the allreduce for rank 1. Before the steps, one unit of compute on every
 * rank and an MPI_Barrier: OpenMP (and a profiler's agent) start on every rank before the
 * timed steps. Each rank prints how long it waited in MPI_Allreduce and computed, by its own clock.
 * usage: mpi_hybrid [STEPS] [UNIT_MS] */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NO_TAIL_CALL() __asm__ volatile("")

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

__attribute__((noinline)) static double spin(double secs)
{
  double end = now() + secs, x = 0;
  while (now() < end)
    for (int i = 0; i < 200; i++) x += i * 0.5;
  return x;
}

__attribute__((noinline)) static double compute(int units, double unit_s)
{
  double s = 0;
#pragma omp parallel reduction(+ : s)
  s += spin(units * unit_s);
  NO_TAIL_CALL();
  return s;
}

__attribute__((noinline)) static double exchange(double local)
{
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  NO_TAIL_CALL();
  return global;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  double unit_s = (argc > 2 ? atof(argv[2]) : 50) / 1000.0;
  double total = 0, waited = 0, computed = 0;
  double c0 = now();
  compute(1, unit_s);
  computed += now() - c0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int s = 0; s < steps; s++) {
    c0 = now();
    double x = compute(1 + rank, unit_s) > 0 ? 1.0 : 0.0;
    double t0 = now();
    computed += t0 - c0;
    total += exchange(x);
    waited += now() - t0;
  }
  printf("mpi_hybrid: rank %d waited %.1f ms in MPI_Allreduce, computed %.1f ms\n", rank, waited * 1e3, computed * 1e3);
  if (rank == 0) printf("mpi_hybrid: %d ranks, %d steps, %d threads, total %.0f\n", size, steps, omp_get_max_threads(), total);
  MPI_Finalize();
  return 0;
}
