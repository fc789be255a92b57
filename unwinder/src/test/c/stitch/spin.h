/* Shared by the stitch test programs: busy work that lasts a given wall-clock time. */
#ifndef STITCH_SPIN_H
#define STITCH_SPIN_H
#include <time.h>

static inline double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Per-thread results, so that no call is a tail call and nothing is optimized away. */
volatile double sink[256];

#endif
