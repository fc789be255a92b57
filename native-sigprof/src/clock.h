/* The one clock of samples and records: CLOCK_MONOTONIC, the JVM's System.nanoTime base too. */
#ifndef OMPPROF_CLOCK_H
#define OMPPROF_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void) /* signal-safe */
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
