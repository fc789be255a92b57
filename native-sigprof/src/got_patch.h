/* The program's calls of guarded libc functions, led through the agent's stand-ins (got_patch.c). */
#ifndef OMPPROF_GOT_PATCH_H
#define OMPPROF_GOT_PATCH_H

#include <stdint.h>

/* A function whose calls come to `wrapper`; `*original` is where the loader would bind them (found at the first
 * patch). A table of them ends with a NULL name. */
struct guarded_call {
  const char *name;
  void *wrapper;
  uintptr_t *original;
};

/* Points every loaded object's GOT slots for the guarded functions at their
 * stand-ins. Idempotent; an object not relocated yet is left for a later
 * call: returns how many were. Not for the signal handler. */
int got_patch(void);

#endif
