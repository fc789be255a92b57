/* Every loaded object the program's threads can run code of, in each link namespace the agent can see. */
#ifndef OMPPROF_LOADED_OBJECTS_H
#define OMPPROF_LOADED_OBJECTS_H

#include <link.h>

typedef int (*loaded_object_fn)(struct dl_phdr_info *info, size_t size, void *data);

/* dl_iterate_phdr over the program's objects, then over those of the loader's
 * auditor that are not the program's too. Not for the signal handler. */
int loaded_objects_iterate(loaded_object_fn fn, void *data);

#endif
