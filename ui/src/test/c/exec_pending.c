/* A sampling signal (SIGPROF) pending when the program execs: the agent's stand-in for exec takes
 * it back, so the new image does not start with it (unblocked, it would kill the new image; a
 * signal the kernel sends during execve is pending just so). `exec_pending` works in a region,
 * blocks SIGPROF, sends it to itself and execs itself with execle as `exec_pending after` and 100
 * arguments more, in an environment of its own (a list of any length, and the environment after
 * it, pass through the stand-in), which prints whether SIGPROF is pending, how many arguments it
 * got and what its environment says. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <omp.h>
#include "omp_util.h"

static volatile int calls;

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "after") == 0) {
    sigset_t pending;
    sigpending(&pending);
    const char *env = getenv("EXEC_PENDING");
    printf("after exec: SIGPROF %s, %d arguments, EXEC_PENDING=%s\n",
           sigismember(&pending, SIGPROF) ? "pending" : "not pending", argc, env ? env : "(unset)");
    return 0;
  }
#pragma omp parallel num_threads(2)
  {
    spin_for(0.05);
    calls++;
  }
  sigset_t prof;
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  sigprocmask(SIG_BLOCK, &prof, NULL);
  raise(SIGPROF);
  fflush(stdout);
#define TEN "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"
#define HUNDRED TEN, TEN, TEN, TEN, TEN, TEN, TEN, TEN, TEN, TEN
  char *const envp[] = {"EXEC_PENDING=passed", NULL};
  execle(argv[0], argv[0], "after", HUNDRED, (char *)NULL, envp);
  perror("execle");
  return 1;
}
