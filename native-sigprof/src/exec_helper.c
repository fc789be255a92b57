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
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's sigaction, for the two signals glibc keeps to itself (32 and
 * 33: thread cancellation, set*id across threads) and whose sigaction refuses
 * them: the JVM's spawn leaves them ignored, and an exec keeps that. */
static void kernel_disposition(int sig, int ignore)
{
  struct {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    uint64_t mask;
  } k = {ignore ? SIG_IGN : SIG_DFL, 0, NULL, 0};
  syscall(SYS_rt_sigaction, sig, &k, NULL, sizeof k.mask);
}

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
    if (sigaction(sig, &sa, NULL) != 0 && errno == EINVAL)
      kernel_disposition(sig, (ignored & bit) != 0);
    if (blocked & bit)
      sigaddset(&mask, sig);
  }
  sigprocmask(SIG_SETMASK, &mask, NULL);
  execv(argv[3], argv + 4);
  fprintf(stderr, "ompprof: cannot run %s: %s\n", argv[3], strerror(errno));
  return 127;
}
