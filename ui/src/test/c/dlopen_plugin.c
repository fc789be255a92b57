/* Loads a plugin with dlopen from a temporary copy after a first parallel region, runs it in
 * a parallel region, then deletes the copy before exiting (as offload runtimes do with their
 * images).
 * usage: dlopen_plugin PLUGIN.so TMPCOPY */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "copy_file.h"

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  static volatile int done; /* after each call, so that the region body keeps its frame */
  /* a region first: the agent is loaded and has seen the program's objects when the plugin comes */
#pragma omp parallel
  done++;
  copy_file(argv[1], argv[2]);
  void *lib = dlopen(argv[2], RTLD_NOW);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  void (*work)(double) = (void (*)(double))dlsym(lib, "plugin_work");
#pragma omp parallel
  {
    work(0.3);
    done++;
  }
  unlink(argv[2]);
#pragma omp parallel
  {
    work(0.1);
    done++;
  }
  printf("plugin ran and its file is gone\n");
  return 0;
}
