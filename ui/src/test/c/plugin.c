/* A shared library that dlopen_plugin loads at run time from a temporary copy. */
#include "omp_util.h"

__attribute__((noinline)) void plugin_work(double seconds) { spin_for(seconds); }
