/* The program's changes to the sampling signal's disposition, led through the agent (signal_guard.c). */
#ifndef OMPPROF_SIGNAL_GUARD_H
#define OMPPROF_SIGNAL_GUARD_H

#include "got_patch.h"

/* sigaction, signal, bsd_signal, sysv_signal, __sysv_signal and sigset. */
extern const struct guarded_call signal_guard_calls[];

#endif
