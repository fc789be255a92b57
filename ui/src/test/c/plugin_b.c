/* The second library dl_replaced loads, after it has closed the first: often where the first was.
 * It sets a signal handler through its own PLT (lazily bound), as MPI's components do. */
#include <signal.h>
#include "omp_util.h"

static volatile sig_atomic_t raised;

static void on_usr1(int sig) {
  (void)sig;
  raised = 1;
}

__attribute__((noinline)) int other_work(double seconds) {
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  spin_for(seconds);
  return raised;
}
