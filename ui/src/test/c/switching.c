/* Known answer (cpu mode on threads that switch very often): every thread of the team runs ROUNDS
 * rounds of work_a (UNITS of arithmetic), a short sleep, work_b (3 * UNITS of the same
 * arithmetic), a short sleep. Each sleep is a voluntary context switch whatever the machine's
 * cores, so each thread switches tens of thousands of times per CPU-second: far above the rate at
 * which cpu mode moves a thread from its perf event to a CPU-clock timer.
 *
 * The answer is measured, not assumed: work_b's share of the CPU time in the two functions is
 * about 3/4 by their units, but it is 0.74-0.82 from run to run (the first microseconds after a
 * wake-up and the preemptions that land in the longer call cost more on some runs than on others).
 * So each thread reads its CPU clock around every call and prints the sums, less what the reads
 * themselves cost (a system call: about 0.55 us a pair here, a point of the share if kept).
 *
 * Prints per thread its tid, its CPU time over the rounds, their CLOCK_MONOTONIC bounds (the
 * samples' clock), its context switches per CPU-second and its CPU time in work_a and in work_b:
 * "tid T cpu_ns C start_ns S end_ns E switches_per_cpu_s R work_a_ns A work_b_ns B".
 * usage: switching [ROUNDS] [UNITS] */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long switches(void) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* A dependent chain of multiply-adds: its time is in proportion to its units (one code for both
 * callers, so no difference of alignment makes one faster). */
__attribute__((noinline)) double chain(long units) {
  double x = 1.0;
  for (long i = 0; i < units * 100; i++) x = x * 1.0000001 + 1e-9;
  return x;
}

__attribute__((noinline)) double work_a(long units) { return chain(units) + 1; }

__attribute__((noinline)) double work_b(long units) { return chain(3 * units) + 1; }

/* The CPU time a pair of clock reads adds to what they bracket: the mean over many empty pairs. */
static long long bracket_ns(void) {
  long long sum = 0;
  for (int i = 0; i < 1000; i++) {
    long long t0 = cpu_ns();
    sum += cpu_ns() - t0;
  }
  return sum / 1000;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 10000, units = argc > 2 ? atol(argv[2]) : 30;
  double sink = 0;
#pragma omp parallel reduction(+ : sink)
  {
    prctl(PR_SET_TIMERSLACK, 1UL); /* sleeps of 20 us, not 70: the default slack is 50 us */
    struct timespec nap = {0, 20000};
    long long m0 = mono_ns(), c0 = cpu_ns();
    long s0 = switches();
    long long in_a = 0, in_b = 0, bracket = bracket_ns();
    for (long r = 0; r < rounds; r++) {
      long long t0 = cpu_ns();
      sink += work_a(units);
      long long t1 = cpu_ns();
      nanosleep(&nap, NULL);
      long long t2 = cpu_ns();
      sink += work_b(units);
      in_a += t1 - t0;
      in_b += cpu_ns() - t2;
      nanosleep(&nap, NULL);
    }
    long long c = cpu_ns() - c0, m1 = mono_ns();
    long s = switches() - s0;
#pragma omp critical
    printf("tid %d cpu_ns %lld start_ns %lld end_ns %lld switches_per_cpu_s %.0f work_a_ns %lld work_b_ns %lld\n",
           gettid(), c, m0, m1, s / (c / 1e9), in_a - rounds * bracket, in_b - rounds * bracket);
  }
  printf("switching: %d threads, %ld rounds (%g)\n", omp_get_max_threads(), rounds, sink > 0 ? 1.0 : 0.0);
  return 0;
}
