/*
 * dl_iterate_phdr lists only its caller's link namespace. The loader's auditor
 * (libompprof-audit.so, with a libc of its own) lives in a namespace of its
 * own, yet its hooks run on the program's threads (la_activity and
 * la_objclose at every dlopen and dlclose): a sample there had no module to
 * name it and no unwind rows to walk out of it. The auditor lists
 * its namespace for the agent; it leaves its lister in the agent once the
 * objects opened with it are mapped (la_activity: glibc 2.36 does not chain an
 * auditor's namespace into r_debug, where the agent could find it). Objects in
 * both namespaces (the loader itself) are listed once, as the program's.
 */
#include "loaded_objects.h"

/* Set by the auditor (audit.c, la_activity): its lister of its own namespace. */
__attribute__((visibility("default"))) int (*ompprof_audit_lister)(loaded_object_fn fn, void *data);
/* Counted by the auditor (la_activity): how often the program's objects changed. */
__attribute__((visibility("default"))) uint64_t ompprof_audit_changes;

int loaded_objects_changes(uint64_t *changes)
{
  if (!__atomic_load_n(&ompprof_audit_lister, __ATOMIC_ACQUIRE))
    return 0;
  *changes = __atomic_load_n(&ompprof_audit_changes, __ATOMIC_ACQUIRE);
  return 1;
}

struct same {
  const struct dl_phdr_info *other;
  int found;
};

static int is_same(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  struct same *s = data;
  s->found = info->dlpi_addr == s->other->dlpi_addr && info->dlpi_phdr == s->other->dlpi_phdr;
  return s->found;
}

struct filtered {
  loaded_object_fn fn;
  void *data;
};

/* An auditor's object the program's namespace lists as well is skipped. */
static int unless_programs(struct dl_phdr_info *info, size_t size, void *data)
{
  struct filtered *f = data;
  struct same s = {info, 0};
  dl_iterate_phdr(is_same, &s);
  return s.found ? 0 : f->fn(info, size, f->data);
}

int loaded_objects_iterate(loaded_object_fn fn, void *data)
{
  int rc = dl_iterate_phdr(fn, data);
  int (*lister)(loaded_object_fn, void *) = __atomic_load_n(&ompprof_audit_lister, __ATOMIC_ACQUIRE);
  struct filtered f = {fn, data};
  return rc == 0 && lister ? lister(unless_programs, &f) : rc;
}
