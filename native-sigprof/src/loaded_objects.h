/* Every loaded object the program's threads can run code of, in each link namespace the agent can see. */
#ifndef OMPPROF_LOADED_OBJECTS_H
#define OMPPROF_LOADED_OBJECTS_H

#include <link.h>
#include <stdint.h>

typedef int (*loaded_object_fn)(struct dl_phdr_info *info, size_t size, void *data);

/* dl_iterate_phdr over the program's objects, then over those of the loader's
 * auditor that are not the program's too. Not for the signal handler. */
int loaded_objects_iterate(loaded_object_fn fn, void *data);

/* Whether the loader's auditor counts the program's dlopens and dlcloses; if
 * so, *changes is the count so far: a load as cheap as the question needs
 * to be on every parallel region (dl_iterate_phdr takes the loader's lock). */
int loaded_objects_changes(uint64_t *changes);

#endif
