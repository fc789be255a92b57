/* Uncontended locks at full speed: one thread takes and releases one omp_lock_t PAIRS times
 * (the way a library guards a cache it rarely shares) and prints the cost of a pair in wall
 * time and in the thread's CPU time.
 * usage: lock_loop [PAIRS (default 5000000)] */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static omp_lock_t lock;
volatile long counter;

__attribute__((noinline)) static void guarded_update(void) {
  omp_set_lock(&lock);
  counter++;
  omp_unset_lock(&lock);
}

int main(int argc, char **argv) {
  long pairs = argc > 1 ? atol(argv[1]) : 5000000;
  omp_init_lock(&lock);
  double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
  for (long i = 0; i < pairs; i++) guarded_update();
  double t = clock_s(CLOCK_MONOTONIC) - t0, c = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
  omp_destroy_lock(&lock);
  /* the thread's CPU time leaves out time the thread spent descheduled on a shared machine */
  printf("lock_loop: %ld pairs in %.4f s, %.2f ns/pair, cpu %.2f ns/pair\n", pairs, t, t * 1e9 / (double)pairs,
         c * 1e9 / (double)pairs);
  return counter == pairs ? 0 : 1;
}
