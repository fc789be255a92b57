/* Shared helpers of the known-answer programs: busy work whose length is wall time, or CPU time. */
#ifndef OMP_UTIL_H
#define OMP_UTIL_H
#include <time.h>

static inline double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Spins on the CPU for `seconds` of wall time; noinline so it is its own frame. */
__attribute__((noinline)) static void spin_for(double seconds) {
  volatile unsigned long sink = 0;
  double end = now_s() + seconds;
  while (now_s() < end)
    for (int i = 0; i < 1000; i++) sink += i;
}

/* Spins until the calling thread has run `seconds` of CPU time: a known answer in cpu mode (and for the
 * program's own profiling timer) whatever the load, which stretches only the wall time. */
__attribute__((noinline)) static void spin_cpu_for(double seconds) {
  volatile unsigned long sink = 0;
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  double end = t.tv_sec + t.tv_nsec * 1e-9 + seconds;
  do {
    for (int i = 0; i < 1000; i++) sink += i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  } while (t.tv_sec + t.tv_nsec * 1e-9 < end);
}
#endif
