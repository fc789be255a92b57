/* Gives glibc's own signals 32 and 33 their default disposition, as a terminal's shell has them,
 * then runs its arguments as a command: the JVM that runs the tests leaves them ignored in its
 * children (its posix_spawn does), and glibc's sigaction refuses them, so the kernel's is called.
 * usage: terminal_exec COMMAND [ARGS...] */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static void default_disposition(int sig) {
  struct {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    uint64_t mask;
  } k = {SIG_DFL, 0, NULL, 0};
  syscall(SYS_rt_sigaction, sig, &k, NULL, sizeof k.mask);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  default_disposition(32);
  default_disposition(33);
  execvp(argv[1], argv + 1);
  perror(argv[1]);
  return 127;
}
