/* A sampling signal (SIGPROF) pending when the program execs: the agent's stand-in for exec takes
 * it back, so the new image does not start with it (unblocked, it would kill the new image; a
 * signal the kernel sends during execve is pending just so). `exec_pending` works in a region,
 * blocks SIGPROF, sends it to itself and execs itself as `exec_pending after`, which prints
 * whether SIGPROF is pending. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <omp.h>
#include "omp_util.h"

static volatile int calls;

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "after") == 0) {
    sigset_t pending;
    sigpending(&pending);
    printf("after exec: SIGPROF %s\n", sigismember(&pending, SIGPROF) ? "pending" : "not pending");
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
  execl(argv[0], argv[0], "after", (char *)NULL);
  perror("execl");
  return 1;
}
