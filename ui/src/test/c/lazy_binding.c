/* Symbol binding on the initial thread, sampled: for SECONDS, each round dlopen's the library
 * bindings.c builds (RTLD_LAZY), looks up its root with dlsym, calls it (2,046 lazy bindings,
 * each through the loader's _dl_runtime_resolve, which keeps its frame's CFA in rbx, and the
 * loader's auditor, which lives in a link namespace of its own) and dlclose's it.
 * usage: lazy_binding LIBBINDINGS.so SECONDS */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double bind_all(const char *path)
{
  void *lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    exit(2);
  }
  double (*root)(double) = (double (*)(double))dlsym(lib, "bind_tree");
  double r = root(1.0);
  dlclose(lib);
  return r;
}

int main(int argc, char **argv)
{
  if (argc < 3)
    return 2;
  int threads = 0;
#pragma omp parallel
  threads = omp_get_num_threads();
  double seconds = atof(argv[2]), t0 = omp_get_wtime(), sum = 0;
  long rounds = 0;
  while (omp_get_wtime() - t0 < seconds) {
    sum += bind_all(argv[1]);
    rounds++;
  }
  printf("%ld rounds on %d threads (%g)\n", rounds, threads, sum);
  return 0;
}
