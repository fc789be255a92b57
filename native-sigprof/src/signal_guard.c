/*
 * A program that sets the sampling signal's disposition takes the signal:
 * every thread's sampling stops first (handler_surrender), so that none of
 * the agent's signals reaches the program's handler (a profiling program's
 * own counts would grow) or the default action (SIGPROF's terminates the
 * program: one that reset its signals to the default was killed). The
 * program then sees what it would see without the agent: the disposition
 * it replaced is the one before the agent's handler, as is the one it asks
 * about while the agent holds the signal. What was lost is reported as a
 * replaced handler (`--signal` leaves SIGPROF to the program).
 */
#include "signal_guard.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "agent_state.h"
#include "handler.h"

enum { SIGACTION, SIGNAL, BSD_SIGNAL, SYSV_SIGNAL, SYSV_SIGNAL_INTERNAL, SIGSET, SIGNAL_KINDS };

static uintptr_t original[SIGNAL_KINDS];

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);

static int guarded_signal(int sig)
{
  return sig == ompprof_g.signo && agent_attached();
}

/* Stops the sampling if the agent still holds the signal; then no signal of the agent's is left pending (ignoring
 * a signal discards its pending instances). Returns whether the disposition the program replaces is the agent's. */
static int take_signal(int sig)
{
  if (!handler_surrender())
    return 0;
  struct sigaction ignore;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ((sigaction_fn)original[SIGACTION])(sig, &ignore, NULL);
  return 1;
}

static int wrap_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
  sigaction_fn real = (sigaction_fn)original[SIGACTION];
  if (!guarded_signal(sig))
    return real(sig, act, old);
  int agents = act ? take_signal(sig) : handler_holds_signal();
  int rc = real(sig, act, old);
  if (rc == 0 && old && agents)
    *old = *handler_program_action();
  return rc;
}

static sighandler_t signal_like(int kind, int sig, sighandler_t handler)
{
  signal_fn real = (signal_fn)original[kind];
  if (!guarded_signal(sig) || handler == SIG_ERR || (kind == SIGSET && handler == SIG_HOLD))
    return real(sig, handler);
  int agents = take_signal(sig);
  sighandler_t was = real(sig, handler);
  return agents && was != SIG_ERR ? handler_program_action()->sa_handler : was;
}

static sighandler_t wrap_signal(int sig, sighandler_t handler)
{
  return signal_like(SIGNAL, sig, handler);
}

static sighandler_t wrap_bsd_signal(int sig, sighandler_t handler)
{
  return signal_like(BSD_SIGNAL, sig, handler);
}

static sighandler_t wrap_sysv_signal(int sig, sighandler_t handler)
{
  return signal_like(SYSV_SIGNAL, sig, handler);
}

static sighandler_t wrap_sysv_signal_internal(int sig, sighandler_t handler)
{
  return signal_like(SYSV_SIGNAL_INTERNAL, sig, handler);
}

static sighandler_t wrap_sigset(int sig, sighandler_t handler)
{
  return signal_like(SIGSET, sig, handler);
}

const struct guarded_call signal_guard_calls[] = {
    {"sigaction", (void *)wrap_sigaction, &original[SIGACTION]},
    {"signal", (void *)wrap_signal, &original[SIGNAL]},
    {"bsd_signal", (void *)wrap_bsd_signal, &original[BSD_SIGNAL]},
    {"sysv_signal", (void *)wrap_sysv_signal, &original[SYSV_SIGNAL]},
    {"__sysv_signal", (void *)wrap_sysv_signal_internal, &original[SYSV_SIGNAL_INTERNAL]},
    {"sigset", (void *)wrap_sigset, &original[SIGSET]},
    {NULL, NULL, NULL},
};
