/* Two parallel regions in the two branches of an if, as HPCCG's ddot has them: clang -O2 makes
 * them one __kmpc_fork_call whose outlined body is chosen by a select, so the runtime sees one
 * call site for both. `one_fork_site ROUNDS`: each round runs the first region once and the
 * second twice, about 1 ms of work each. */
#include <stdio.h>
#include <stdlib.h>

static double x[1 << 16], y[1 << 16];

__attribute__((noinline)) static double combine(const double *a, const double *b, int n) {
  double s = 0;
  if (a == b)
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += a[i] * a[i];
  else
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += a[i] * b[i] + 1e-9 * a[i];
  return s;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 200, n = 1 << 16;
  for (int i = 0; i < n; i++) { x[i] = i * 1e-6; y[i] = 1.0 / (i + 1); }
  double t = 0;
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < 20; k++) t += combine(x, x, n) + combine(x, y, n) + combine(x, y, n);
  printf("one_fork_site: %d rounds (%g)\n", rounds, t > 0 ? 1.0 : 0.0);
  return 0;
}
