/*
 * libompprof-audit.so: the dynamic linker's auditing interface (LD_AUDIT),
 * so that a library dlclose'd between two OpenMP events is still announced
 * to the JVM, with its file held, before the loader unmaps it: la_objclose
 * runs before the unmapping and calls the agent, which rescans the loaded
 * objects while the closing one is still among them.
 *
 * It lives in the loader's audit namespace (its own libc), binds no symbols
 * (no la_symbind: calls between libraries are not slowed), and takes itself
 * out of LD_AUDIT at start, so that the program sees the environment it was
 * given (and its children do not load it).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define AGENT_NAME "libompprof.so"

static struct link_map *agent;
static void (*objclose_hook)(void);

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

/* The launch passes through executables of its own on the way to the program
 * (the JDK's jspawnhelper, ompprof-exec): they must pass LD_AUDIT on. */
static int is_launcher(void)
{
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return 0;
  exe[n] = '\0';
  const char *base = strrchr(exe, '/');
  base = base ? base + 1 : exe;
  return strcmp(base, "jspawnhelper") == 0 || strcmp(base, "ompprof-exec") == 0;
}

__attribute__((visibility("default"))) unsigned la_version(unsigned version)
{
  if (is_launcher())
    return 0; /* not audited; LD_AUDIT stays for the program */
  leave_environment();
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

static int is_agent(const char *name)
{
  const char *base = strrchr(name, '/');
  return strcmp(base ? base + 1 : name, AGENT_NAME) == 0;
}

__attribute__((visibility("default"))) unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  (void)cookie;
  if (lmid == LM_ID_BASE && map->l_name && is_agent(map->l_name))
    agent = map;
  return 0; /* no LA_FLG_BINDTO/BINDFROM: nothing is audited per call */
}

__attribute__((visibility("default"))) unsigned la_objclose(uintptr_t *cookie)
{
  struct link_map *map = (struct link_map *)*cookie;
  if (!agent)
    return 0;
  if (map == agent) { /* the agent never unloads (-z nodelete); if it did, forget it */
    agent = NULL;
    objclose_hook = NULL;
    return 0;
  }
  if (!objclose_hook)
    objclose_hook = (void (*)(void))dlsym(agent, "ompprof_objclose");
  if (objclose_hook)
    objclose_hook();
  return 0;
}
