/* Device (offload) activity: the target callbacks and the device trace buffers. */
#ifndef OMPPROF_DEVICE_H
#define OMPPROF_DEVICE_H

#include <omp-tools.h>
#include <stdint.h>

#include "thread_state.h"

void device_register(ompt_set_callback_t set, uint64_t *always, int debug);

#endif
