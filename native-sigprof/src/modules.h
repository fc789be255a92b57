/* The loaded objects: announcing them, the frame walk's unwind rows. */
#ifndef OMPPROF_MODULES_H
#define OMPPROF_MODULES_H

#include "thread_state.h"
#include <stdint.h>

int modules_init(void);
void modules_rescan(struct priv *p, int force);
void modules_build_unwind_tables(void); /* the frame walk's rows (cfi_table.h) for the objects loaded now */

/* From the program's main on (the handlers registered then run before the loader's own at exit, which closes every
 * object): the objects' closing at exit rescans nothing. */
void modules_watch_exit(void);

#endif
