/*
 * selfstack: captures its own registers and stack at a known point of a known call chain and
 * writes them, with the loaded modules and glibc backtrace()'s answer at the same point, to a
 * file that the Java tests unwind. backtrace() walks the live stack with libgcc's CFI
 * unwinder, which makes it an independent oracle for the Java unwinder.
 *
 * usage: selfstack direct|qsort|signal OUTPUT
 *   direct: main -> a -> b -> c
 *   qsort:  main -> a -> b -> qsort (libc) -> cmp -> c
 *   signal: main -> a -> b -> raise -> [signal trampoline] -> on_signal -> c
 *
 * File layout (little-endian): "OMPSTK01", u64 rip, rsp, rbp, u64 stack_len, stack bytes,
 * u64 n, n x u64 backtrace pcs, u64 m, m x module {u64 bias, u64 name_len, name,
 * u64 image_len, image bytes (the vDSO only; 0 means read the file at name)}.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

#define MAX_STACK 65536
#define MAX_FRAMES 128

static uint64_t g_rip, g_rsp, g_rbp, g_stack_top, g_stack_len;
static unsigned char g_stack[MAX_STACK];
static void *g_bt[MAX_FRAMES];
static int g_bt_n;
static volatile int g_sink;
static int g_mode;
static int g_captured;

enum { DIRECT, QSORT, SIGNAL };

static int find_mapping(const char *tag, uint64_t *lo, uint64_t *hi) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b;
        if (strstr(line, tag) && sscanf(line, "%lx-%lx", &a, &b) == 2) {
            *lo = a;
            *hi = b;
            found = 1;
            break;
        }
    }
    fclose(f);
    return found;
}

NOINLINE void save_snapshot(uint64_t rsp) {
    uint64_t len = g_stack_top - rsp;
    if (len > MAX_STACK) len = MAX_STACK;
    memcpy(g_stack, (const void *)rsp, len);
    g_stack_len = len;
}

/* Inline so that rip, rsp and rbp belong to the function that invokes it, the same frame in
 * which backtrace() is called; everything done afterwards only touches memory below rsp. */
#define CAPTURE()                                                                              \
    do {                                                                                       \
        uint64_t rip_, rsp_, rbp_;                                                             \
        __asm__ volatile("leaq 0(%%rip), %0\n\tmovq %%rsp, %1\n\tmovq %%rbp, %2"               \
                         : "=r"(rip_), "=r"(rsp_), "=r"(rbp_)::"memory");                      \
        g_bt_n = backtrace(g_bt, MAX_FRAMES);                                                  \
        g_rip = rip_;                                                                          \
        g_rsp = rsp_;                                                                          \
        g_rbp = rbp_;                                                                          \
        save_snapshot(rsp_);                                                                   \
    } while (0)

NOINLINE int c(int x) {
    CAPTURE();
    g_captured = 1;
    g_sink += x;
    return x * 2;
}

NOINLINE int cmp(const void *x, const void *y) {
    if (!g_captured) g_sink += c(*(const int *)x);
    return *(const int *)x - *(const int *)y;
}

NOINLINE void on_signal(int sig) {
    g_sink += c(sig);
}

NOINLINE int b(int x) {
    int r;
    if (g_mode == QSORT) {
        int values[8] = {5, 3, 8, 1, x, 7, 2, 6};
        qsort(values, 8, sizeof values[0], cmp);
        r = values[0];
    } else if (g_mode == SIGNAL) {
        raise(SIGUSR1);
        r = x;
    } else {
        r = c(x + 1);
    }
    g_sink += r; /* keeps the calls above from being tail calls */
    return r + 3;
}

NOINLINE int a(int x) {
    int r = b(x + 1);
    g_sink += r;
    return r + 5;
}

static void put_u64(FILE *f, uint64_t v) {
    fwrite(&v, sizeof v, 1, f);
}

static int write_module(struct dl_phdr_info *info, size_t size, void *data) {
    FILE *f = data;
    char exe[4096];
    const char *name = info->dlpi_name;
    uint64_t lo = 0, hi = 0;
    int is_vdso = strstr(name, "vdso") != NULL;
    (void)size;
    if (name[0] == '\0') {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return 0;
        exe[n] = '\0';
        name = exe;
    }
    put_u64(f, info->dlpi_addr);
    put_u64(f, strlen(name));
    fwrite(name, 1, strlen(name), f);
    if (is_vdso && find_mapping("[vdso]", &lo, &hi)) {
        put_u64(f, hi - lo);
        fwrite((const void *)lo, 1, hi - lo, f);
    } else {
        put_u64(f, 0);
    }
    return 0;
}

static int count_module(struct dl_phdr_info *info, size_t size, void *data) {
    (void)info;
    (void)size;
    ++*(uint64_t *)data;
    return 0;
}

int main(int argc, char **argv) {
    uint64_t lo, modules = 0;
    void *warm[4];
    if (argc != 3) {
        fprintf(stderr, "usage: %s direct|qsort|signal OUTPUT\n", argv[0]);
        return 2;
    }
    g_mode = strcmp(argv[1], "qsort") == 0 ? QSORT : strcmp(argv[1], "signal") == 0 ? SIGNAL : DIRECT;
    if (!find_mapping("[stack]", &lo, &g_stack_top)) return 3;
    /* The first backtrace() loads libgcc_s: do it now, outside the signal handler and before
     * the module list is taken. */
    backtrace(warm, 4);
    signal(SIGUSR1, on_signal);
    g_sink += a(argc);
    if (!g_captured) return 4;

    FILE *f = fopen(argv[2], "wb");
    if (!f) return 5;
    fwrite("OMPSTK01", 1, 8, f);
    put_u64(f, g_rip);
    put_u64(f, g_rsp);
    put_u64(f, g_rbp);
    put_u64(f, g_stack_len);
    fwrite(g_stack, 1, g_stack_len, f);
    put_u64(f, (uint64_t)g_bt_n);
    for (int i = 0; i < g_bt_n; i++) put_u64(f, (uint64_t)(uintptr_t)g_bt[i]);
    dl_iterate_phdr(count_module, &modules);
    put_u64(f, modules);
    dl_iterate_phdr(write_module, f);
    return fclose(f) == 0 ? 0 : 6;
}
