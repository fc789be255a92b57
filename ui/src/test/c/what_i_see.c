/* Prints what a program can see of how it was started: argv, the environment (sorted),
 * the signals ignored or blocked, all at the start of main and after an OpenMP region, and
 * whether malloc grows the heap with brk;
 * recorded and plain runs must print the same (the tool's own variables aside). */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void show(const char *when, int argc, char **argv) {
  for (int i = 0; i < argc; i++) printf("%s argv[%d]=%s\n", when, i, argv[i]);
  size_t n = 0;
  while (environ[n]) n++;
  char **env = malloc((n + 1) * sizeof *env);
  memcpy(env, environ, (n + 1) * sizeof *env);
  qsort(env, n, sizeof *env, by_string);
  for (size_t i = 0; i < n; i++) printf("%s env %s\n", when, env[i]);
  free(env);
  sigset_t blocked;
  sigprocmask(SIG_BLOCK, NULL, &blocked);
  for (int s = 1; s < NSIG; s++) {
    struct sigaction sa;
    if (sigaction(s, NULL, &sa) != 0) continue;
    if (sa.sa_handler == SIG_IGN) printf("%s signal %d ignored\n", when, s);
    if (sigismember(&blocked, s) == 1) printf("%s signal %d blocked\n", when, s);
  }
  /* the kernel's view, which has glibc's own signals (32, 33) too: sigaction refuses them */
  FILE *status = fopen("/proc/self/status", "r");
  char line[256];
  while (status && fgets(line, sizeof line, status))
    if (strncmp(line, "SigIgn:", 7) == 0 || strncmp(line, "SigBlk:", 7) == 0) printf("%s %s", when, line);
  if (status) fclose(status);
}

/* Whether malloc grows the heap with brk, as glibc's does in a program of its own (an auditor that
 * defines la_symbind64 turned that off in every recorded program). */
static void heap(void) {
  void *before = sbrk(0), *blocks[64];
  for (int i = 0; i < 64; i++) blocks[i] = malloc(4096);
  printf("heap grows with brk: %s\n", (char *)sbrk(0) > (char *)before ? "yes" : "no");
  for (int i = 0; i < 64; i++) free(blocks[i]);
}

int main(int argc, char **argv) {
  show("start", argc, argv);
  heap();
  int threads = 0;
#pragma omp parallel
  {
#pragma omp atomic
    threads++;
  }
  show("after-region", argc, argv);
  return threads > 0 ? 7 : 1;
}
