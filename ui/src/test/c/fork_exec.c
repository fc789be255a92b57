/* `fork_exec fork`: the parent works in an OpenMP region, forks a child that works in its own
 * region (child_work) and exits 0, waits for it, and works again. `fork_exec exec`: works,
 * then execs itself as `fork_exec after-exec`, which works in a region (after_exec_work) and
 * exits 5. The profile must hold parent_work only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <omp.h>
#include "omp_util.h"

static volatile int calls;

/* Not tail calls, so each is a frame of its own in the profile. */
__attribute__((noinline)) static void parent_work(void) { spin_for(0.15); calls++; }
__attribute__((noinline)) static void child_work(void) { spin_for(0.3); calls++; }
__attribute__((noinline)) static void after_exec_work(void) { spin_for(0.3); calls++; }

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "after-exec") == 0) {
#pragma omp parallel num_threads(2)
    after_exec_work();
    printf("after exec: done\n");
    return 5;
  }
#pragma omp parallel num_threads(2)
  parent_work();
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "exec") == 0) {
    execl("/proc/self/exe", argv[0], "after-exec", (char *)NULL);
    perror("exec");
    return 1;
  }
  pid_t child = fork();
  if (child == 0) {
#pragma omp parallel num_threads(2)
    child_work();
    printf("child: done\n");
    return 0;
  }
  int status = 0;
  waitpid(child, &status, 0);
#pragma omp parallel num_threads(2)
  parent_work();
  printf("parent: child exited %d\n", WEXITSTATUS(status));
  return 0;
}
