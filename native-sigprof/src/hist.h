/* Handler cost histogram bucketing (layout: ompprof_wire.h, OMPPROF_HIST_*). */
#ifndef OMPPROF_HIST_H
#define OMPPROF_HIST_H

#include <stdint.h>

#include "ompprof_wire.h"

static inline uint32_t hist_bucket(uint64_t ns) /* signal-safe */
{
  if (ns < (uint64_t)OMPPROF_HIST_LINEAR * OMPPROF_HIST_LINEAR_NS)
    return (uint32_t)(ns / OMPPROF_HIST_LINEAR_NS);
  /* floor(log2(ns / 4096)); everything beyond the last bucket lands in it */
  uint32_t k = 63u - (uint32_t)__builtin_clzll(ns >> 12);
  if (k >= OMPPROF_HIST_LOG)
    k = OMPPROF_HIST_LOG - 1;
  return OMPPROF_HIST_LINEAR + k;
}

#endif
