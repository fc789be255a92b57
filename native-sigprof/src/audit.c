/*
 * libompprof-audit.so: the dynamic linker's auditing interface (LD_AUDIT),
 * so that a library dlclose'd between two OpenMP events is still announced
 * to the JVM, with its file held, before the loader unmaps it: la_objclose
 * runs before the unmapping and calls the agent, which rescans the loaded
 * objects while the closing one is still among them.
 *
 * It counts the program's dlopens and dlcloses for the agent (la_activity).
 *
 * It defines no la_symbind64: an auditor that does makes glibc 2.36 set up
 * the program's malloc before libc knows it is the initial one, and that
 * malloc never grows the heap with brk (every allocation-heavy program ran
 * differently recorded). The agent leads the program's exec and signal calls
 * through itself instead (got_patch.c).
 *
 * It lists its own namespace's objects for the agent (the loader runs its
 * hooks on the program's threads, where they are sampled).
 *
 * It lives in the loader's audit namespace (its own libc) and takes itself
 * out of LD_AUDIT at start, so that the program sees the environment it was
 * given (and its children do not load it).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "launch_env.h"

extern char **environ;

#define AGENT_NAME "libompprof.so"

static struct link_map *agent;
/* The agent's entry points, looked up on first use; forgotten with the agent. */
static struct {
  void (*objclose)(uint64_t bias, const char *name);
  void (*consistent)(void);
  uint64_t *changes;
} hooks;

/* The program's own object, first of the base namespace: the handle whose search list holds the objects loaded at
 * its start (a preloaded agent among them), which have none of their own to look a symbol up in. */
static struct link_map *program;
static int agent_at_start;

/* The agent's function `name`, or NULL while the agent is not loaded. */
static void *agent_function(const char *name)
{
  if (!agent)
    return NULL;
  return dlsym(agent_at_start ? program : agent, name);
}

/* Our entry is the first of LD_AUDIT (the launcher puts it there): removed in
 * place, in the one environment array both namespaces' libcs point to. */
static void leave_environment(void)
{
  static const char key[] = "LD_AUDIT=";
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, key, sizeof key - 1) != 0)
      continue;
    char *value = *e + sizeof key - 1;
    char *rest = strchr(value, ':');
    if (rest) {
      memmove(value, rest + 1, strlen(rest + 1) + 1); /* the program's own auditors stay */
    } else {
      char **d = e;
      do
        d[0] = d[1];
      while (*d++);
    }
    return;
  }
}

__attribute__((visibility("default"))) unsigned la_version(unsigned version)
{
  if (launch_is_launcher())
    return 0; /* not audited; LD_AUDIT stays for the program */
  leave_environment();
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

static int is_agent(const char *name)
{
  const char *base = strrchr(name, '/');
  return strcmp(base ? base + 1 : name, AGENT_NAME) == 0;
}

/* The agent lists this namespace's objects (this library, its libc) through this, since its own
 * dl_iterate_phdr lists the program's namespace only: the loader lists the namespace of the
 * call's return address, so the call is made here, never as a tail call. */
static int iterate_here(int (*fn)(struct dl_phdr_info *, size_t, void *), void *data)
{
  int rc = dl_iterate_phdr(fn, data);
  __asm__ volatile("" ::: "memory");
  return rc;
}

/* Set at la_preinit: at the program's start the loader reports its objects consistent before it has relocated them,
 * and dlsym cannot be called until it has (the agent preloaded is among them). */
static int relocated;

/* Once the objects opened with the agent are all mapped (before the agent's constructors and the
 * runtime's call into it; at the program's start, once they are relocated too), the agent gets the lister. From then
 * on, every time the loaded objects are consistent again after a dlopen or dlclose, the agent's count of changes goes
 * up: the agent looks at it, not at the loader's list, on every parallel region (before the lister, which tells the
 * agent the count is kept). */
static void introduce(void)
{
  static struct link_map *introduced;
  if (!agent || !relocated)
    return;
  if (!hooks.changes)
    hooks.changes = agent_function("ompprof_audit_changes");
  if (hooks.changes)
    __atomic_add_fetch(hooks.changes, 1, __ATOMIC_RELEASE);
  if (introduced == agent)
    return;
  void **slot = agent_function("ompprof_audit_lister");
  if (slot && hooks.changes)
    __atomic_store_n(slot, (void *)iterate_here, __ATOMIC_RELEASE);
  introduced = agent;
}

/* After a dlopen that mapped objects the agent rescans at once: a library's constructors run after this
 * (libinfinipath's sleep inside MPI_Init), and its code may run and be closed before any parallel region would have
 * rescanned (a plugin run before the program's first region): its samples then had another library's names. */
__attribute__((visibility("default"))) void la_activity(uintptr_t *cookie, unsigned int flag)
{
  (void)cookie;
  static unsigned last;
  unsigned before = last;
  last = flag;
  if (flag != LA_ACT_CONSISTENT)
    return;
  introduce();
  if (before != LA_ACT_ADD || !agent || !relocated)
    return;
  if (!hooks.consistent)
    hooks.consistent = (void (*)(void))agent_function("ompprof_objects_consistent");
  if (hooks.consistent)
    hooks.consistent();
}

/* The program's objects are loaded and relocated, their constructors (a preloaded agent's) not yet run. */
__attribute__((visibility("default"))) void la_preinit(uintptr_t *cookie)
{
  (void)cookie;
  relocated = 1;
  introduce();
}

__attribute__((visibility("default"))) unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  (void)cookie;
  if (lmid != LM_ID_BASE)
    return 0;
  if (!program)
    program = map;
  if (map->l_name && is_agent(map->l_name)) {
    agent = map;
    agent_at_start = !relocated;
  }
  return 0; /* no bindings audited */
}

__attribute__((visibility("default"))) unsigned la_objclose(uintptr_t *cookie)
{
  struct link_map *map = (struct link_map *)*cookie;
  if (!agent)
    return 0;
  if (map == agent) { /* the agent never unloads (-z nodelete); if it did, forget it */
    agent = NULL;
    hooks.objclose = NULL;
    hooks.consistent = NULL;
    hooks.changes = NULL;
    return 0;
  }
  if (!hooks.objclose)
    hooks.objclose = (void (*)(uint64_t, const char *))agent_function("ompprof_objclose");
  if (hooks.objclose)
    hooks.objclose(map->l_addr, map->l_name);
  return 0;
}
