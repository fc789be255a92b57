/*
 * ompprof-exec: starts the program with the signal dispositions and mask it
 * would have had without ompprof in between. The JVM that launches it takes
 * over signals for itself (SIGPIPE, SIGUSR2, SIGSEGV, ...) and spawns with an
 * empty mask, so a signal the user's shell ignored or blocked would reach the
 * program in its default state; this restores both, then execs the program
 * with the argv[0] the user typed.
 *
 * usage: ompprof-exec IGNORED BLOCKED PATH ARGV0 [ARGS...]
 *   IGNORED, BLOCKED: hexadecimal masks as in /proc/PID/status (SigIgn,
 *   SigBlk: bit n-1 stands for signal n); PATH: the executable to run.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_mask(const char *s, uint64_t *out)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 16);
  if (errno != 0 || end == s || *end != '\0')
    return -1;
  *out = (uint64_t)v;
  return 0;
}

int main(int argc, char **argv)
{
  uint64_t ignored, blocked;
  if (argc < 5 || parse_mask(argv[1], &ignored) != 0 || parse_mask(argv[2], &blocked) != 0) {
    fprintf(stderr, "usage: ompprof-exec IGNORED BLOCKED PATH ARGV0 [ARGS...] (started by ompprof record)\n");
    return 127;
  }
  sigset_t mask;
  sigemptyset(&mask);
  for (int sig = 1; sig <= 64; sig++) {
    uint64_t bit = UINT64_C(1) << (sig - 1);
    if (sig == SIGKILL || sig == SIGSTOP)
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = (ignored & bit) ? SIG_IGN : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL); /* glibc refuses its own 32 and 33: they stay as they are */
    if (blocked & bit)
      sigaddset(&mask, sig);
  }
  sigprocmask(SIG_SETMASK, &mask, NULL);
  execv(argv[3], argv + 4);
  fprintf(stderr, "ompprof: cannot run %s: %s\n", argv[3], strerror(errno));
  return 127;
}
