/*
 * Loaded-object announcements. The JVM symbolizes and unwinds offline, so it
 * needs every object's load bias, segments, unwind table location and a
 * trustworthy copy of its file. Files may be deleted or replaced while the
 * program runs (build trees, `make install`), so the agent keeps an fd open
 * to every file it announces and the JVM copies the file through
 * /proc/<pid>/fd/<fd>. The vDSO has no file: its image travels inline.
 *
 * Runs only from callbacks and initialize/finalize, never in the handler:
 * it takes a mutex, allocates and makes system calls.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent_state.h"
#include "capture.h"
#include "cfi_table.h"
#include "clock.h"
#include "code_ranges.h"
#include "got_patch.h"
#include "loaded_objects.h"
#include "modules.h"
#include "record.h"
#include "slots.h"
#include "thread_state.h"

#define MOD_TABLE_CAP  4096u
#define VDSO_IMAGE_CAP (64u * 1024u)

struct mod_entry {
  uint64_t bias;
  char *name; /* dlpi_name as reported, the key together with bias */
  uint64_t id;
  int fd;
  uint32_t seen; /* scan generation */
};

static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mod_entry *table;
static uint32_t nmods;
static uint32_t scan_gen;
static uint64_t next_module_id;
static uint64_t vdso_base;

/* dlpi_adds/dlpi_subs seen by the last full scan (read without the lock) */
static unsigned long long last_adds, last_subs;
/* the auditor's count of changes before the last full scan, if it counts */
static uint64_t last_changes;
static int rescan_wanted = 1;

/* fds of unloaded modules, closed only once the JVM has caught up with every
 * announcement: closing earlier could let the number be reused by an
 * unrelated file before the JVM opened /proc/<pid>/fd/<fd>. */
static int pending_close[MOD_TABLE_CAP];
static uint32_t npending;

struct scan {
  struct priv *p;
  int counted;
  unsigned long long adds, subs;
};

/* Set once the program exits: the loader then closes every object, and a rescan for each, to hold a file that stays
 * on disk anyway, was tens of milliseconds of a program's end (Rodinia backprop: 20 samples in them). */
static int exiting;

static void mark_exiting(void)
{
  __atomic_store_n(&exiting, 1, __ATOMIC_RELAXED);
}

void modules_watch_exit(void)
{
  atexit(mark_exiting);
}

int modules_init(void)
{
  table = calloc(MOD_TABLE_CAP, sizeof *table);
  vdso_base = getauxval(AT_SYSINFO_EHDR);
  return table && code_ranges_init() == 0 ? 0 : -1;
}

static void flush_pending_closes(void)
{
  struct ompprof_region_header *h = ompprof_g.hdr;
  if (!npending || __atomic_load_n(&h->modules_captured, __ATOMIC_ACQUIRE) <
                       __atomic_load_n(&h->modules_announced, __ATOMIC_RELAXED))
    return;
  for (uint32_t i = 0; i < npending; i++)
    close(pending_close[i]);
  npending = 0;
}

static uint32_t read_build_id(const ElfW(Phdr) * ph, uint64_t bias, uint8_t *out)
{
  const uint8_t *p = (const uint8_t *)(uintptr_t)(bias + ph->p_vaddr);
  const uint8_t *end = p + ph->p_filesz;
  uint64_t al = ph->p_align == 8 ? 8 : 4;
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
    const uint8_t *name = p + sizeof *n;
    const uint8_t *desc = name + ((n->n_namesz + al - 1) & ~(al - 1));
    const uint8_t *next = desc + ((n->n_descsz + al - 1) & ~(al - 1));
    if (next > end || next <= p)
      break;
    if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
      uint32_t len = n->n_descsz < OMPPROF_MAX_BUILD_ID ? n->n_descsz : OMPPROF_MAX_BUILD_ID;
      memcpy(out, desc, len);
      return len;
    }
    p = next;
  }
  return 0;
}

static struct mod_entry *find(uint64_t bias, const char *name)
{
  for (uint32_t i = 0; i < nmods; i++)
    if (table[i].bias == bias && strcmp(table[i].name, name) == 0)
      return &table[i];
  return NULL;
}

/* Returns 1 if the MODULE record was written (or there was nothing to do). */
static int announce(struct scan *sc, const struct dl_phdr_info *info, const char *name)
{
  struct agent *g = &ompprof_g;
  struct ompprof_module m;
  struct ompprof_segment segs[OMPPROF_MAX_SEGMENTS];
  uint32_t nseg = 0;
  uint64_t max_end = 0;
  uint64_t self = (uint64_t)(uintptr_t)&modules_rescan;
  int is_vdso = 0, is_agent = 0;

  memset(&m, 0, sizeof m);
  memset(segs, 0, sizeof segs);
  m.load_bias = info->dlpi_addr;
  m.fd = -1;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD) {
      uint64_t start = info->dlpi_addr + ph->p_vaddr;
      if (nseg < OMPPROF_MAX_SEGMENTS)
        segs[nseg++] = (struct ompprof_segment){ph->p_vaddr, ph->p_memsz, ph->p_offset, ph->p_filesz, ph->p_flags, 0};
      if (ph->p_offset == 0 && vdso_base && start == vdso_base)
        is_vdso = 1;
      if (self >= start && self < start + ph->p_memsz)
        is_agent = 1;
      if (start + ph->p_memsz > max_end)
        max_end = start + ph->p_memsz;
    } else if (ph->p_type == PT_GNU_EH_FRAME) {
      m.eh_frame_hdr = ph->p_vaddr;
    } else if (ph->p_type == PT_NOTE && m.build_id_len == 0) {
      m.build_id_len = read_build_id(ph, info->dlpi_addr, m.build_id);
    }
  }

  char exe[PATH_MAX];
  const char *path = name;
  const char *open_path = name;
  if (!is_vdso && name[0] == '\0') {
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    path = exe;
    /* the link, not the name: it still reaches a deleted or replaced binary */
    open_path = "/proc/self/exe";
    m.flags |= OMPPROF_MOD_MAIN;
  }
  if (is_agent)
    m.flags |= OMPPROF_MOD_AGENT;

  const uint8_t *image = NULL;
  if (is_vdso) {
    m.flags |= OMPPROF_MOD_VDSO;
    /* whole pages: the section headers past the last segment are mapped too,
     * and the JVM wants them to read the vDSO's symbols */
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t len = ((max_end + page - 1) & ~(page - 1)) - vdso_base;
    m.image_len = (uint32_t)(len < VDSO_IMAGE_CAP ? len : VDSO_IMAGE_CAP);
    image = (const uint8_t *)(uintptr_t)vdso_base;
  } else {
    struct stat st;
    int fd = open(open_path, O_RDONLY | O_CLOEXEC);
    int ok = fd >= 0 && fstat(fd, &st) == 0;
    if (!ok) {
      if (fd >= 0)
        close(fd);
      fd = -1;
      ok = stat(path, &st) == 0;
      m.flags |= OMPPROF_MOD_NO_FILE;
    } else {
      m.flags |= OMPPROF_MOD_FD_HELD;
      m.fd = fd;
    }
    if (ok) {
      m.dev = (uint64_t)st.st_dev;
      m.ino = (uint64_t)st.st_ino;
      m.file_size = (uint64_t)st.st_size;
      m.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    }
  }

  size_t plen = strlen(path);
  m.path_len = (uint32_t)plen;
  m.segment_count = nseg;
  m.time_ns = now_ns();
  m.module_id = ++next_module_id;

  uint64_t size =
      sizeof(struct ompprof_record_header) + sizeof m + nseg * sizeof(struct ompprof_segment) + plen + m.image_len;
  struct ring_res res;
  if (RING_ALIGN8(size) > sc->p->cb.event.size) {
    /* can never fit: count it once and remember the module anyway, so that
     * it is not retried on every scan */
    ring_count_drop(&sc->p->cb.event, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size);
    if (m.fd >= 0)
      close(m.fd);
    m.fd = -1;
    goto remember;
  }
  if (!record_reserve(&sc->p->cb.event, OMPPROF_REC_MODULE, (uint32_t)RING_ALIGN8(size), sc->p->thread_seq, &res)) {
    if (m.fd >= 0)
      close(m.fd);
    return 0;
  }
  uint8_t *out = res.rec;
  out += sizeof(struct ompprof_record_header);
  memcpy(out, &m, sizeof m);
  out += sizeof m;
  memcpy(out, segs, nseg * sizeof(struct ompprof_segment));
  out += nseg * sizeof(struct ompprof_segment);
  memcpy(out, path, plen);
  out += plen;
  if (image)
    memcpy(out, image, m.image_len);
  memset(out + m.image_len, 0, RING_ALIGN8(size) - size);
  record_commit(&sc->p->cb.event, &res, (uint32_t)RING_ALIGN8(size));
  if (m.fd >= 0)
    __atomic_add_fetch(&g->hdr->modules_announced, 1, __ATOMIC_RELEASE);

remember:;
  char *key = strdup(name);
  if (!key || nmods == MOD_TABLE_CAP) {
    /* untracked: it will be announced again by the next full scan, which
     * is better than never announcing it */
    free(key);
    rescan_wanted = 1;
    return 1;
  }
  table[nmods++] = (struct mod_entry){info->dlpi_addr, key, m.module_id, m.fd, scan_gen};
  return 1;
}

static int peek_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
  struct scan *sc = arg;
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
    sc->adds = info->dlpi_adds;
    sc->subs = info->dlpi_subs;
    sc->counted = 1;
  }
  return 1; /* the counters are the same in every entry: one is enough */
}

static int scan_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
  struct scan *sc = arg;
  if (!sc->counted)
    peek_cb(info, size, arg);
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  struct mod_entry *e = find(info->dlpi_addr, name);
  if (e)
    e->seen = scan_gen;
  else if (!announce(sc, info, name))
    rescan_wanted = 1; /* dropped (ring full): try again next time */
  return 0;
}

static void unload_vanished(struct priv *p)
{
  for (uint32_t i = 0; i < nmods;) {
    struct mod_entry *e = &table[i];
    if (e->seen == scan_gen) {
      i++;
      continue;
    }
    struct {
      struct ompprof_record_header h;
      struct ompprof_module_unload b;
    } rec;
    rec.b.time_ns = now_ns();
    rec.b.module_id = e->id;
    record_write(&p->cb.event, OMPPROF_REC_MODULE_UNLOAD, &rec, sizeof rec, p->thread_seq);
    if (e->fd >= 0) {
      if (npending < MOD_TABLE_CAP)
        pending_close[npending++] = e->fd;
      else
        close(e->fd);
    }
    free(e->name);
    table[i] = table[--nmods];
  }
}

/* Called by libompprof-audit.so (LD_AUDIT) from la_objclose, on the thread
 * that closes a library, before the loader unmaps it: a rescan announces it
 * (file held) while it is still listed, unless it was announced already (as
 * it is loaded, since ompprof_objects_consistent). */
__attribute__((visibility("default"))) void ompprof_objclose(uint64_t bias, const char *name)
{
  if (!agent_attached() || !table || __atomic_load_n(&exiting, __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock(&mod_lock);
  int known = find(bias, name ? name : "") != NULL;
  pthread_mutex_unlock(&mod_lock);
  if (!known)
    modules_rescan(priv_for_agent(), 1);
}

void modules_build_unwind_tables(void)
{
  pthread_mutex_lock(&mod_lock);
  cfi_tables_refresh();
  pthread_mutex_unlock(&mod_lock);
}

/* patch: whether to guard the objects' calls now (got_patch leaves an object not yet relocated for later: where the
 * caller knows the new ones are not, the pass over every object's relocations would be for nothing) */
static void rescan(struct priv *p, int force, int patch)
{
  if (!p || !table)
    return;
  struct scan sc = {p, 0, 0, 0};
  /* Cheap path, on every parallel_begin, without the mutex: the auditor's
   * count of changes, or else the loader's add/sub counters, say whether
   * anything changed since the last full scan. */
  uint64_t changes = 0;
  int audited = loaded_objects_changes(&changes);
  if (!force && !__atomic_load_n(&rescan_wanted, __ATOMIC_RELAXED)) {
    if (audited) {
      if (changes == __atomic_load_n(&last_changes, __ATOMIC_RELAXED))
        return;
    } else {
      dl_iterate_phdr(peek_cb, &sc);
      if (sc.counted && sc.adds == __atomic_load_n(&last_adds, __ATOMIC_RELAXED) &&
          sc.subs == __atomic_load_n(&last_subs, __ATOMIC_RELAXED))
        return;
      sc.counted = 0;
    }
  }
  pthread_mutex_lock(&mod_lock);
  /* counted before the scan: a change during it is seen by the next call */
  audited = loaded_objects_changes(&changes);
  __atomic_store_n(&rescan_wanted, 0, __ATOMIC_RELAXED);
  scan_gen++;
  loaded_objects_iterate(scan_cb, &sc);
  unload_vanished(p);
  code_ranges_refresh();
  cfi_tables_refresh();
  int unpatched = patch ? got_patch() : 0; /* an object another thread's dlopen has not relocated yet waits */
  if (audited) {
    __atomic_store_n(&last_changes, changes, __ATOMIC_RELAXED);
  } else if (sc.counted) {
    __atomic_store_n(&last_adds, sc.adds, __ATOMIC_RELAXED);
    __atomic_store_n(&last_subs, sc.subs, __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&rescan_wanted, 1, __ATOMIC_RELAXED);
  }
  if (unpatched)
    __atomic_store_n(&rescan_wanted, 1, __ATOMIC_RELAXED);
  flush_pending_closes();
  pthread_mutex_unlock(&mod_lock);
}

void modules_rescan(struct priv *p, int force)
{
  rescan(p, force, 1);
}

/* Called by libompprof-audit.so from la_activity, on the thread that loaded a library, once the loaded objects are
 * consistent again: the new library is announced before its constructors run. It is not relocated yet: its calls are
 * guarded (got_patch) at the next rescan, which this asks for. (A closed library's unload is announced by the next
 * rescan: at the latest the one that announces another library in its place.) */
__attribute__((visibility("default"))) void ompprof_objects_consistent(void)
{
  if (!agent_attached() || !table || __atomic_load_n(&exiting, __ATOMIC_RELAXED))
    return;
  rescan(priv_for_agent(), 1, 0);
  __atomic_store_n(&rescan_wanted, 1, __ATOMIC_RELAXED);
}
