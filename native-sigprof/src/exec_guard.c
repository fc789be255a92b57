/*
 * exec replaces the program but keeps a thread's pending signals, and resets
 * the sampling signal's handler to its default action (terminate): a sample
 * signal sent while the thread was inside execve killed the new program. The
 * program's calls to the exec functions therefore come here first: the
 * thread's sampling stops and a signal already on its way is taken back
 * (ompprof_exec_begin); if exec fails, sampling resumes.
 *
 * They come here through their GOT slots (got_patch.c). Calls inside libc (system, posix_spawn, popen) are not led
 * here, and need not be: they exec in a new child process, which starts with no pending signals and no timers.
 */
#include "exec_guard.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>

#include "timers.h"

enum { EXECVE, EXECV, EXECVP, EXECVPE, EXECL, EXECLP, EXECLE, EXEC_KINDS };

/* The functions the program's slots pointed to, as the loader would bind them. */
static uintptr_t original[EXEC_KINDS];

typedef int (*vector_fn)(const char *, char *const[], char *const[]);

static int exec_vector(int kind, const char *path, char *const argv[], char *const envp[])
{
  int stopped = ompprof_exec_begin();
  int rc = ((vector_fn)original[kind])(path, argv, envp); /* execv and execvp ignore the third */
  ompprof_exec_failed(stopped);
  return rc;
}

static int wrap_execve(const char *path, char *const argv[], char *const envp[])
{
  return exec_vector(EXECVE, path, argv, envp);
}

static int wrap_execv(const char *path, char *const argv[])
{
  return exec_vector(EXECV, path, argv, NULL);
}

static int wrap_execvp(const char *file, char *const argv[])
{
  return exec_vector(EXECVP, file, argv, NULL);
}

static int wrap_execvpe(const char *file, char *const argv[], char *const envp[])
{
  return exec_vector(EXECVPE, file, argv, envp);
}

/*
 * The list forms become their vector forms (`kind`), as libc's list forms do:
 * the arguments up to the NULL into an array (on the stack: exec replaces the
 * image or fails at once), and execle's envp after the NULL.
 */
static int exec_list(int kind, const char *path, const char *arg, va_list ap)
{
  va_list count;
  va_copy(count, ap);
  size_t argc = 1;
  while (va_arg(count, char *) != NULL) {
    if (argc == INT_MAX) { /* as libc's list forms refuse such a call */
      va_end(count);
      errno = E2BIG;
      return -1;
    }
    argc++;
  }
  va_end(count);
  char *argv[argc + 1];
  argv[0] = (char *)arg;
  for (size_t i = 1; i <= argc; i++)
    argv[i] = va_arg(ap, char *); /* the last is the NULL */
  char *const *envp = kind == EXECVE ? va_arg(ap, char *const *) : NULL;
  return exec_vector(kind, path, argv, envp);
}

static int wrap_execl(const char *path, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int rc = exec_list(EXECV, path, arg, ap);
  va_end(ap);
  return rc;
}

static int wrap_execlp(const char *file, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int rc = exec_list(EXECVP, file, arg, ap);
  va_end(ap);
  return rc;
}

static int wrap_execle(const char *path, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int rc = exec_list(EXECVE, path, arg, ap);
  va_end(ap);
  return rc;
}

const struct guarded_call exec_guard_calls[] = {
    {"execve", (void *)wrap_execve, &original[EXECVE]}, {"execv", (void *)wrap_execv, &original[EXECV]},
    {"execvp", (void *)wrap_execvp, &original[EXECVP]}, {"execvpe", (void *)wrap_execvpe, &original[EXECVPE]},
    {"execl", (void *)wrap_execl, &original[EXECL]},    {"execlp", (void *)wrap_execlp, &original[EXECLP]},
    {"execle", (void *)wrap_execle, &original[EXECLE]}, {NULL, NULL, NULL},
};
