/* A program that uses SIGPROF itself. `own_sigprof early`: its own handler and a setitimer
 * profiling timer before any OpenMP, and how many of its ticks 0.3 s of CPU time brings (30 at
 * its 100 Hz, within 20%); `late`: the same after a first OpenMP region (over the profiler's handler);
 * `default`: SIGPROF back to its default action (terminate) after a first region, then more
 * regions; `block`: OpenMP threads that block SIGPROF while they work. It prints what it sees
 * of SIGPROF's disposition and whether its own handler ran, which must not depend on being
 * profiled. */
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

static const char *disposition(const struct sigaction *sa) {
  if (sa->sa_flags & SA_SIGINFO) return "a handler";
  return sa->sa_handler == SIG_DFL ? "default" : sa->sa_handler == SIG_IGN ? "ignored" : "a handler";
}

/* Installs its handler and timer; says what the disposition was before. */
static void own_timer(void) {
  struct sigaction sa, before;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, &before);
  printf("SIGPROF before its handler: %s\n", disposition(&before));
  struct itimerval it = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_PROF, &it, NULL);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "early";
  struct sigaction at_start;
  sigaction(SIGPROF, NULL, &at_start);
  printf("SIGPROF at start: %s\n", disposition(&at_start));
  if (strcmp(mode, "early") == 0) {
    own_timer();
    ticks = 0;
    spin_cpu_for(0.3); /* what ITIMER_PROF counts, however busy the machine */
    int n = ticks; /* 30 at 100 Hz; a profiler's signals reaching its handler make hundreds */
    if (n >= 20 && n <= 36)
      printf("its ticks in 0.3 s of CPU: about 30\n");
    else
      printf("its ticks in 0.3 s of CPU: %d\n", n);
  }
#pragma omp parallel num_threads(2)
  spin_for(0.2);
  if (strcmp(mode, "late") == 0) own_timer();
  if (strcmp(mode, "default") == 0) signal(SIGPROF, SIG_DFL);
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
  if (strcmp(mode, "default") == 0) {
#pragma omp parallel num_threads(2)
    spin_for(0.1);
    printf("default action and done\n");
  } else if (strcmp(mode, "block") != 0) {
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    printf("own handler ran during the work: %s\n", ticks > 0 ? "yes" : "no");
  } else {
    printf("blocked and done\n");
  }
  return 0;
}
