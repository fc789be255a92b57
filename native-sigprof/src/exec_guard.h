/* The program's calls to the exec functions, led through the agent (exec_guard.c). */
#ifndef OMPPROF_EXEC_GUARD_H
#define OMPPROF_EXEC_GUARD_H

/* Points every loaded object's GOT slots for execve, execv, execvp, execvpe,
 * execl, execlp and execle at the agent's stand-ins, which stop the thread's
 * sampling around the call. Idempotent; for a new object, call again once it
 * is relocated. Not for the signal handler. */
void exec_guard_patch(void);

#endif
