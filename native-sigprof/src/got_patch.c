/*
 * The program's calls of a few libc functions, led through the agent: its
 * exec calls (exec_guard.c) and its changes to the sampling signal's
 * disposition (signal_guard.c).
 *
 * They come here through their GOT slots, which the agent rewrites in every
 * loaded object (JUMP_SLOT and GLOB_DAT relocations by symbol name) when it
 * starts and after every rescan that found new objects. The loader's auditor
 * used to redirect these bindings (la_symbind64), but an auditor that defines
 * la_symbind64 makes glibc 2.36 initialize the program's malloc before libc
 * knows it is the initial one, and that malloc never grows the heap with brk:
 * LULESH ran 30% faster recorded, with a hundredth of its page faults.
 */
#include "got_patch.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec_guard.h"
#include "signal_guard.h"

static const struct guarded_call *const tables[] = {exec_guard_calls, signal_guard_calls};

/* The guarded call named `name`, if any: a first-letter filter, then a few string compares, for each of an object's
 * thousands of relocations. */
static const struct guarded_call *guarded(const char *name)
{
  if (name[0] != 'e' && name[0] != 's' && name[0] != 'b' && name[0] != '_')
    return NULL;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const struct guarded_call *c = tables[t]; c->name; c++)
      if (strcmp(name, c->name) == 0)
        return c;
  return NULL;
}

/* Objects whose calls are not the program's: libc's own, the loader's, the vDSO's, the agent's. */
static int is_excluded(const struct dl_phdr_info *info)
{
  static const char *const names[] = {"libc.so", "ld-linux", "linux-vdso", "libompprof"};
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strncmp(base, names[i], strlen(names[i])) == 0)
      return 1;
  return 0;
}

struct dynamic {
  const Elf64_Sym *symtab;
  const char *strtab;
  const Elf64_Rela *rela[2];
  size_t rela_bytes[2];
  uintptr_t relro_lo, relro_hi;
  const uintptr_t *pltgot;
  int bind_now;
};

/* A dynamic entry's address: the loader has made most of them absolute, an object it did not relocate in place has
 * them relative to its base. */
static uintptr_t at(const struct dl_phdr_info *info, uintptr_t v)
{
  return v < info->dlpi_addr ? v + info->dlpi_addr : v;
}

static int read_dynamic(const struct dl_phdr_info *info, struct dynamic *d)
{
  memset(d, 0, sizeof *d);
  const Elf64_Dyn *dyn = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const Elf64_Phdr *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_DYNAMIC)
      dyn = (const Elf64_Dyn *)(info->dlpi_addr + ph->p_vaddr);
    if (ph->p_type == PT_GNU_RELRO) {
      d->relro_lo = info->dlpi_addr + ph->p_vaddr;
      d->relro_hi = d->relro_lo + ph->p_memsz;
    }
  }
  if (!dyn)
    return 0;
  int plt_rela = 1;
  for (; dyn->d_tag != DT_NULL; dyn++) {
    switch (dyn->d_tag) {
    case DT_SYMTAB:
      d->symtab = (const Elf64_Sym *)at(info, dyn->d_un.d_ptr);
      break;
    case DT_STRTAB:
      d->strtab = (const char *)at(info, dyn->d_un.d_ptr);
      break;
    case DT_JMPREL:
      d->rela[0] = (const Elf64_Rela *)at(info, dyn->d_un.d_ptr);
      break;
    case DT_PLTRELSZ:
      d->rela_bytes[0] = dyn->d_un.d_val;
      break;
    case DT_PLTREL:
      plt_rela = dyn->d_un.d_val == DT_RELA;
      break;
    case DT_RELA:
      d->rela[1] = (const Elf64_Rela *)at(info, dyn->d_un.d_ptr);
      break;
    case DT_RELASZ:
      d->rela_bytes[1] = dyn->d_un.d_val;
      break;
    case DT_PLTGOT:
      d->pltgot = (const uintptr_t *)at(info, dyn->d_un.d_ptr);
      break;
    case DT_BIND_NOW:
      d->bind_now = 1;
      break;
    case DT_FLAGS:
      d->bind_now |= (dyn->d_un.d_val & DF_BIND_NOW) != 0;
      break;
    case DT_FLAGS_1:
      d->bind_now |= (dyn->d_un.d_val & DF_1_NOW) != 0;
      break;
    default:
      break;
    }
  }
  if (!plt_rela)
    d->rela[0] = NULL; /* x86-64 has RELA only */
  return d->symtab && d->strtab;
}

/*
 * Writes the slot. A slot in the object's RELRO pages is read-only once the
 * loader is done with the object, and not yet while another thread's dlopen
 * relocates it (dl_iterate_phdr lists an object from its mapping on): it is
 * written through /proc/self/mem, which leaves the page's protection alone,
 * where mprotect could make a page read-only under the loader's feet. Where
 * that write is refused, the slot is left as it is.
 */
static void set_slot(uintptr_t *slot, uintptr_t value, const struct dynamic *d, int *mem)
{
  if (__atomic_load_n(slot, __ATOMIC_RELAXED) == value)
    return;
  uintptr_t a = (uintptr_t)slot;
  if (a < d->relro_lo || a >= d->relro_hi) {
    __atomic_store_n(slot, value, __ATOMIC_RELAXED);
    return;
  }
  if (*mem == -1)
    *mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
  /* a kernel that allows no forced writes refuses: this object's calls are then not led here */
  if (*mem >= 0)
    (void)pwrite(*mem, &value, sizeof value, (off_t)a);
}

/*
 * Whether the loader has relocated the object: a slot written before would be
 * overwritten (bound now) or, bound lazily, get the object's base added to it
 * (a dlopen on another thread maps an object, and it is listed, before it
 * relocates it). A lazily bound object's relocation sets its GOT's second and
 * third words (its link map, the loader's resolver), zero in the file.
 */
static int relocated(const struct dynamic *d)
{
  static int bind_now_all = -1;
  if (bind_now_all < 0) {
    const char *e = getenv("LD_BIND_NOW");
    bind_now_all = e && *e;
  }
  if (!d->rela[0] || !d->pltgot || d->bind_now || bind_now_all)
    return 1;
  return __atomic_load_n(&d->pltgot[2], __ATOMIC_RELAXED) != 0;
}

struct patch {
  int mem;     /* /proc/self/mem, opened for a RELRO slot */
  int waiting; /* objects not relocated yet */
};

static int patch_object(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  struct patch *pt = data;
  int *mem = &pt->mem;
  struct dynamic d;
  if (is_excluded(info) || !read_dynamic(info, &d))
    return 0;
  if (!relocated(&d)) {
    pt->waiting++;
    return 0;
  }
  for (int t = 0; t < 2; t++) {
    if (!d.rela[t])
      continue;
    size_t n = d.rela_bytes[t] / sizeof(Elf64_Rela);
    for (size_t i = 0; i < n; i++) {
      const Elf64_Rela *r = &d.rela[t][i];
      uint32_t type = ELF64_R_TYPE(r->r_info), sym = ELF64_R_SYM(r->r_info);
      if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) || sym == 0)
        continue;
      const struct guarded_call *c = guarded(d.strtab + d.symtab[sym].st_name);
      if (c && *c->original != 0)
        set_slot((uintptr_t *)(info->dlpi_addr + r->r_offset), (uintptr_t)c->wrapper, &d, mem);
    }
  }
  return 0;
}

int got_patch(void)
{
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const struct guarded_call *c = tables[t]; c->name; c++)
      if (*c->original == 0)
        *c->original = (uintptr_t)dlsym(RTLD_DEFAULT, c->name);
  struct patch pt = {-1, 0}; /* /proc/self/mem closed again: the program's descriptors stay its own */
  dl_iterate_phdr(patch_object, &pt);
  if (pt.mem >= 0)
    close(pt.mem);
  return pt.waiting;
}
