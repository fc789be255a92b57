/* A program that uses SIGPROF itself. `own_sigprof early`: its own handler and a setitimer
 * profiling timer before any OpenMP; `late`: the same after a first OpenMP region (over the
 * profiler's handler); `block`: OpenMP threads that block SIGPROF while they work. It prints
 * whether its own handler ran, which must not depend on being profiled. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <omp.h>
#include "omp_util.h"

static volatile sig_atomic_t ticks;

static void on_prof(int sig) {
  (void)sig;
  ticks++;
}

static void own_timer(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_PROF, &it, NULL);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "early";
  if (strcmp(mode, "early") == 0) own_timer();
#pragma omp parallel num_threads(2)
  spin_for(0.2);
  if (strcmp(mode, "late") == 0) own_timer();
  ticks = 0; /* what counts is that its handler runs while the profiled work does */
#pragma omp parallel num_threads(2)
  {
    if (strcmp(mode, "block") == 0) {
      sigset_t s;
      sigemptyset(&s);
      sigaddset(&s, SIGPROF);
      pthread_sigmask(SIG_BLOCK, &s, NULL);
    }
    spin_for(0.3);
  }
  if (strcmp(mode, "block") != 0) {
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    printf("own handler ran during the work: %s\n", ticks > 0 ? "yes" : "no");
  } else {
    printf("blocked and done\n");
  }
  return 0;
}
