/*
 * libompprof-audit.so: the dynamic linker's auditing interface (LD_AUDIT),
 * so that a library dlclose'd between two OpenMP events is still announced
 * to the JVM, with its file held, before the loader unmaps it: la_objclose
 * runs before the unmapping and calls the agent, which rescans the loaded
 * objects while the closing one is still among them.
 *
 * It also puts itself between the program and the exec functions: exec keeps
 * a thread's pending signals but resets the sampling signal's handler, so a
 * sample signal sent while the thread was in execve killed the new program;
 * the agent stops the thread's sampling first (ompprof_exec_begin). Only
 * those symbols' bindings are changed (la_symbind, no la_pltenter): calls
 * between libraries are not slowed.
 *
 * It lists its own namespace's objects for the agent (the loader runs
 * la_symbind64 on the program's threads, where they are sampled).
 *
 * It lives in the loader's audit namespace (its own libc) and takes itself
 * out of LD_AUDIT at start, so that the program sees the environment it was
 * given (and its children do not load it).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define AGENT_NAME "libompprof.so"

static struct link_map *agent;
static struct link_map *libc;
/* The agent's entry points, looked up on first use; forgotten with the agent. */
static struct {
  void (*objclose)(void);
  int (*exec_begin)(void);
  void (*exec_failed)(int);
  uint64_t *changes;
} hooks;

/* The agent's function `name`, or NULL while the agent is not loaded. */
static void *agent_function(const char *name)
{
  return agent ? dlsym(agent, name) : NULL;
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

static int is_libc(const char *name)
{
  const char *base = strrchr(name, '/');
  return strncmp(base ? base + 1 : name, "libc.so", 7) == 0;
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

/* Once the objects opened with the agent are all mapped (before the agent's constructors and the
 * runtime's call into it), the agent gets the lister. From then on, every time the loaded objects
 * are consistent again after a dlopen or dlclose, the agent's count of changes goes up: the agent
 * looks at it, not at the loader's list, on every parallel region (before the lister, which tells
 * the agent the count is kept). */
__attribute__((visibility("default"))) void la_activity(uintptr_t *cookie, unsigned int flag)
{
  (void)cookie;
  static struct link_map *introduced;
  if (flag != LA_ACT_CONSISTENT || !agent)
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

__attribute__((visibility("default"))) unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  (void)cookie;
  if (lmid != LM_ID_BASE)
    return 0;
  if (map->l_name && is_agent(map->l_name))
    agent = map;
  if (map->l_name && is_libc(map->l_name))
    libc = map;
  /* bindings from the program's objects to libc are shown to la_symbind64; nothing per call */
  return LA_FLG_BINDFROM | LA_FLG_BINDTO;
}

/* Around an exec call: the agent stops the thread's sampling (0 when it was not sampled). */
static int exec_begin(void)
{
  if (!hooks.exec_begin)
    hooks.exec_begin = (int (*)(void))agent_function("ompprof_exec_begin");
  return hooks.exec_begin ? hooks.exec_begin() : 0;
}

/* exec returned: it failed, and the agent samples the thread again (keeping the program's errno). */
static void exec_failed(int stopped)
{
  if (stopped && !hooks.exec_failed)
    hooks.exec_failed = (void (*)(int))agent_function("ompprof_exec_failed");
  if (stopped && hooks.exec_failed)
    hooks.exec_failed(stopped);
}

/* The exec functions this library stands in for, and libc's own, as the loader bound them. Errno
 * is never touched here: this namespace's errno is not the program's. */
enum { EXECVE, EXECV, EXECVP, EXECVPE, EXECL, EXECLP, EXECLE, EXEC_KINDS };
static uintptr_t original[EXEC_KINDS];

typedef int (*vector_fn)(const char *, char *const[], char *const[]);

static int exec_vector(int kind, const char *path, char *const argv[], char *const envp[])
{
  int stopped = exec_begin();
  int rc = ((vector_fn)original[kind])(path, argv, envp); /* execv and execvp ignore the third */
  exec_failed(stopped);
  return rc;
}

static int wrap_execve(const char *path, char *const argv[], char *const envp[])
{
  return exec_vector(EXECVE, path, argv, envp);
}

static int wrap_execv(const char *path, char *const argv[])
{
  return exec_vector(EXECV, path, argv, NULL);
}

static int wrap_execvp(const char *file, char *const argv[])
{
  return exec_vector(EXECVP, file, argv, NULL);
}

static int wrap_execvpe(const char *file, char *const argv[], char *const envp[])
{
  return exec_vector(EXECVPE, file, argv, envp);
}

/*
 * The list forms pass their arguments on to libc's own list form: a call with
 * a fixed number of pointer arguments, the list's NULL (and execle's envp
 * after it) at their places, reads as the program's call did.
 */
#define LIST_MAX 62
typedef int (*list_fn)(const char *, ...);

static int exec_list(int kind, const char *path, const char *arg, va_list ap)
{
  char *a[LIST_MAX + 2] = {(char *)arg};
  int n = 0;
  while (a[n] != NULL && n < LIST_MAX)
    a[++n] = va_arg(ap, char *);
  if (a[n] != NULL)
    return -1; /* longer than any list written out in a call: not ours to shorten */
  if (kind == EXECLE)
    a[n + 1] = va_arg(ap, char *);
  int stopped = exec_begin();
  int rc = ((list_fn)original[kind])(
      path, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16],
      a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31], a[32],
      a[33], a[34], a[35], a[36], a[37], a[38], a[39], a[40], a[41], a[42], a[43], a[44], a[45], a[46], a[47], a[48],
      a[49], a[50], a[51], a[52], a[53], a[54], a[55], a[56], a[57], a[58], a[59], a[60], a[61], a[62], a[63]);
  exec_failed(stopped);
  return rc;
}

static int wrap_execl(const char *path, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int rc = exec_list(EXECL, path, arg, ap);
  va_end(ap);
  return rc;
}

static int wrap_execlp(const char *file, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int rc = exec_list(EXECLP, file, arg, ap);
  va_end(ap);
  return rc;
}

static int wrap_execle(const char *path, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int rc = exec_list(EXECLE, path, arg, ap);
  va_end(ap);
  return rc;
}

static const struct {
  const char *name;
  void *wrapper;
} exec_wrappers[EXEC_KINDS] = {
    [EXECVE] = {"execve", (void *)wrap_execve}, [EXECV] = {"execv", (void *)wrap_execv},
    [EXECVP] = {"execvp", (void *)wrap_execvp}, [EXECVPE] = {"execvpe", (void *)wrap_execvpe},
    [EXECL] = {"execl", (void *)wrap_execl},    [EXECLP] = {"execlp", (void *)wrap_execlp},
    [EXECLE] = {"execle", (void *)wrap_execle},
};

__attribute__((visibility("default"))) uintptr_t la_symbind64(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
                                                              uintptr_t *defcook, unsigned int *flags,
                                                              const char *symname)
{
  (void)ndx;
  (void)refcook;
  (void)flags;
  if ((struct link_map *)*defcook == libc && symname && symname[0] == 'e')
    for (int i = 0; i < EXEC_KINDS; i++)
      if (strcmp(symname, exec_wrappers[i].name) == 0) {
        original[i] = sym->st_value;
        return (uintptr_t)exec_wrappers[i].wrapper;
      }
  return sym->st_value;
}

__attribute__((visibility("default"))) unsigned la_objclose(uintptr_t *cookie)
{
  struct link_map *map = (struct link_map *)*cookie;
  if (!agent)
    return 0;
  if (map == agent) { /* the agent never unloads (-z nodelete); if it did, forget it */
    agent = NULL;
    hooks.objclose = NULL;
    hooks.exec_begin = NULL;
    hooks.exec_failed = NULL;
    hooks.changes = NULL;
    return 0;
  }
  if (!hooks.objclose)
    hooks.objclose = (void (*)(void))agent_function("ompprof_objclose");
  if (hooks.objclose)
    hooks.objclose();
  return 0;
}
