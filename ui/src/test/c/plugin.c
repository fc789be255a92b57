/* A shared library that dlopen_plugin loads at run time from a temporary copy. */
#include "omp_util.h"

volatile int plugin_calls;

/* Not a tail call: the frame stays on the stack, so the known path is main > region > plugin_work > spin_for. */
__attribute__((noinline)) void plugin_work(double seconds) {
  spin_for(seconds);
  plugin_calls++;
}
