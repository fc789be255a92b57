/* Loads a plugin before the program's first OpenMP construct, runs it for ~0.3 s on the initial
 * thread, closes it, then loads another library, which the loader often maps where the first
 * was, and runs it in a parallel region (it sets a signal handler through its lazily bound PLT).
 * Prints whether the second took the first's place, and whether its handler ran.
 * usage: dl_replaced FIRST.so SECOND.so */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <omp.h>
#include <stdio.h>

static ElfW(Addr) base(void *lib) {
  struct link_map *map = NULL;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  return map ? map->l_addr : 0;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  void *first = dlopen(argv[1], RTLD_NOW);
  if (!first) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  ElfW(Addr) first_base = base(first);
  ((void (*)(double))dlsym(first, "plugin_work"))(0.3);
  if (dlclose(first) != 0) return 3;
  void *second = dlopen(argv[2], RTLD_NOW);
  if (!second) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  int (*other)(double) = (int (*)(double))dlsym(second, "other_work");
  int handled = 1;
#pragma omp parallel reduction(&& : handled)
  handled = other(0.1);
  printf("the second library took the first's place: %s; its signal handler ran: %s\n",
         base(second) == first_base ? "yes" : "no", handled ? "yes" : "no");
  return 0;
}
