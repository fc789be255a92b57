/* Exec calls that fail (no such file) between two OpenMP regions: each prints the error the
 * program reads (errno), and the work after them (after_failed_exec) is sampled as before
 * them (before_exec). The tests check both under ompprof. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <omp.h>
#include "omp_util.h"

static volatile int calls;

/* Not tail calls, so each is a frame of its own in the profile. */
__attribute__((noinline)) static void before_exec(void) { spin_for(0.1); calls++; }
__attribute__((noinline)) static void after_failed_exec(void) { spin_for(0.2); calls++; }

int main(void) {
#pragma omp parallel num_threads(2)
  before_exec();
  char *const argv[] = {"x", NULL}, *const envp[] = {NULL};
  execl("/nonexistent/ompprof-test", "x", "a", (char *)NULL);
  printf("execl: %s\n", strerror(errno));
  execle("/nonexistent/ompprof-test", "x", (char *)NULL, envp);
  printf("execle: %s\n", strerror(errno));
  execvp("no-such-command-ompprof-test", argv);
  printf("execvp: %s\n", strerror(errno));
  execve("/nonexistent/ompprof-test", argv, envp);
  printf("execve: %s\n", strerror(errno));
#pragma omp parallel num_threads(2)
  after_failed_exec();
  printf("exec_fails: done\n");
  return 0;
}
