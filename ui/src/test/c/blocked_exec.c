/* Blocks SIGUSR1, SIGTERM and SIGWINCH, then runs its arguments as a command: a parent that
 * starts ompprof (or a program) with signals blocked, which the program inherits.
 * usage: blocked_exec COMMAND [ARGS...] */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGUSR1);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGWINCH);
  sigprocmask(SIG_BLOCK, &s, NULL);
  execvp(argv[1], argv + 1);
  perror(argv[1]);
  return 127;
}
