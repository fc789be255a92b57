// C++ names: a parallel region whose threads format doubles through std::ostringstream, so most
// samples sit in libstdc++ (names from its symbol table, mangled there: _ZNSo9_M_insertIdEERSoT_).
// usage: names_stream SECONDS (threads from OMP_NUM_THREADS)
#include <omp.h>
#include <cstdio>
#include <cstdlib>
#include <sstream>

__attribute__((noinline)) static double format_numbers(double seconds) {
  double t0 = omp_get_wtime(), chars = 0;
  for (long k = 0; omp_get_wtime() - t0 < seconds; k++) {
    std::ostringstream os;
    for (int i = 0; i < 64; i++) os << (k * 0.37 + i * 1e-3);
    chars += os.str().size();
  }
  return chars;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 1.0, chars = 0;
#pragma omp parallel reduction(+ : chars)
  chars += format_numbers(seconds);
  std::printf("names_stream: %d threads, %.0f characters\n", omp_get_max_threads(), chars);
  return 0;
}
