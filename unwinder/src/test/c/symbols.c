/*
 * Symbolization test program. Lines marked "LINE:name" are looked up by the tests, so keep
 * each marker on the line of the code it names. Never run: only compiled and read.
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) long mix(long x) {
    return (x * 2654435761L) ^ (x >> 7); /* LINE:mix */
}

static __attribute__((noinline)) long hidden_static(long x) {
    long s = 0;
    for (long i = 0; i < x; i++) s += mix(i + x); /* LINE:static-loop */
    return s;
}

__attribute__((noinline)) long exported_global(long x) {
    return hidden_static(x) + 1; /* LINE:global-call */
}

/* zero_size_asm has no .size: it must reach up to after_asm. The pref_* aliases share one address. */
__asm__(".text\n"
        ".globl zero_size_asm\n.type zero_size_asm,@function\nzero_size_asm:\n nop\n nop\n nop\n ret\n"
        ".globl after_asm\n.type after_asm,@function\nafter_asm:\n ret\n.size after_asm, 1\n"
        ".weak pref_weak\n.type pref_weak,@function\n"
        ".globl pref_global\n.type pref_global,@function\n"
        ".type pref_local,@function\n"
        "pref_weak:\npref_local:\npref_global:\n ret\n.size pref_global, 1\n.size pref_weak, 1\n.size pref_local, 1\n");

int main(int argc, char **argv) {
    (void)argv;
    printf("%ld\n", exported_global(argc * 1000L));
    return 0;
}
