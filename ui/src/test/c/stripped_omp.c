/* Static functions, whose names only .symtab holds: once stripped, only a debug file,
 * MiniDebugInfo or a build-id debug file can name them. */
#include <omp.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) static double hidden_leaf(long n) {
    double s = 0;
    for (long i = 0; i < n; i++) s += (double)i / (double)(i + 3);
    return s;
}

__attribute__((noinline)) static double hidden_middle(long n) {
    return hidden_leaf(n) + 1.0;
}

int main(void) {
    double total = 0;
#pragma omp parallel reduction(+ : total)
    for (int r = 0; r < 40; r++) total += hidden_middle(4000000);
    sink = total;
    printf("done\n");
    return 0;
}
