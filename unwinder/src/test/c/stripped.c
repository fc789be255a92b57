/* Static functions live only in .symtab: stripping loses their names. */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static double hidden_leaf(int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += (double)i / (i + 1);
    return s;
}

__attribute__((noinline)) static double hidden_middle(int n) {
    return hidden_leaf(n) + hidden_leaf(n / 2);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    for (int r = 0; r < rounds; r++) sink += hidden_middle(2000000);
    printf("%f\n", sink);
    return 0;
}
