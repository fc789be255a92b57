/*
 * The launcher's environment, as the libraries it puts into the program read it. The launch passes
 * through executables of its own on the way to the program (the JDK's jspawnhelper, ompprof-exec),
 * which must pass the variables on untouched; in the program, a library the launcher preloaded
 * takes itself out of LD_PRELOAD again, so that the program and the children it starts see what
 * they were given. Constructors only (single-threaded, allocation allowed); header-only, since each
 * library (agent, auditor, MPI companion) is linked on its own.
 */
#ifndef OMPPROF_LAUNCH_ENV_H
#define OMPPROF_LAUNCH_ENV_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int launch_is_launcher(void)
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

/* Whether LD_PRELOAD's entry [start, start + len) is `library` (by its file name). */
static inline int launch_entry_is(const char *start, size_t len, const char *library)
{
  size_t want = strlen(library);
  if (len < want || memcmp(start + len - want, library, want) != 0)
    return 0;
  return len == want || start[len - want - 1] == '/';
}

/* Takes every entry naming `library` out of LD_PRELOAD (colons or spaces apart, as the loader reads
 * it); unsets it when none is left. Returns whether there was one. */
static inline int launch_leave_preload(const char *library)
{
  const char *preload = getenv("LD_PRELOAD");
  if (!preload)
    return 0;
  size_t size = strlen(preload) + 1;
  char *kept = malloc(size);
  if (!kept)
    return 0;
  size_t out = 0;
  int found = 0;
  for (const char *p = preload; *p;) {
    size_t len = strcspn(p, ": ");
    if (len > 0 && launch_entry_is(p, len, library)) {
      found = 1;
    } else if (len > 0) {
      if (out)
        kept[out++] = ':';
      memcpy(kept + out, p, len);
      out += len;
    }
    p += len;
    if (*p)
      p++;
  }
  kept[out] = '\0';
  if (found && out)
    setenv("LD_PRELOAD", kept, 1);
  else if (found)
    unsetenv("LD_PRELOAD");
  free(kept);
  return found;
}

#endif
