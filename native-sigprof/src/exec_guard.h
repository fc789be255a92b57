/* The program's calls to the exec functions, led through the agent (exec_guard.c). */
#ifndef OMPPROF_EXEC_GUARD_H
#define OMPPROF_EXEC_GUARD_H

#include "got_patch.h"

/* execve, execv, execvp, execvpe, execl, execlp and execle: their stand-ins stop the thread's sampling around the
 * call. */
extern const struct guarded_call exec_guard_calls[];

#endif
