/* Loads a plugin with dlopen from a temporary copy between two OpenMP regions, runs it on the
 * initial thread for ~0.3 s (sampled), dlclose's it and deletes the copy, then runs on: the
 * library comes and goes with no OpenMP event in between, as image tools load coder modules.
 * usage: dlclose_between PLUGIN.so TMPCOPY */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "copy_file.h"
#include "omp_util.h"


int main(int argc, char **argv) {
  if (argc < 3) return 2;
  int threads = 0;
#pragma omp parallel
  threads = omp_get_num_threads();
  copy_file(argv[1], argv[2]);
  void *lib = dlopen(argv[2], RTLD_NOW);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  void (*work)(double) = (void (*)(double))dlsym(lib, "plugin_work");
  work(0.3);
  if (dlclose(lib) != 0 || unlink(argv[2]) != 0) return 3;
  spin_for(0.1);
#pragma omp parallel
  threads += omp_get_num_threads();
  printf("plugin ran, was closed and its file is gone (%d)\n", threads);
  return 0;
}
