/* Known answer (critical blame with idle threads spinning): a parallel quicksort whose threads
 * share a stack of ranges guarded by one critical section. A thread takes a range inside the
 * critical (take_range), partitions it outside, pushes the larger part back inside the
 * critical (push_range) and goes on with the smaller; a range of at most CUTOFF elements is
 * sorted serially outside (small_sort), then counted as finished inside the critical
 * (finish_range). Ranges are large (a sixteenth of the array by default), so the critical is
 * entered for work a few dozen times: with more threads than cores each entry may wait for a
 * descheduled thread (libomp's queuing lock hands it on in order), and a few dozen such waits
 * keep the run short even on a loaded machine (a cut-off of 64 elements made it minutes).
 * A thread that finds the stack empty goes straight back into the critical: idle threads
 * spin through it, so most waiting for it happens while the sorting goes on elsewhere.
 *
 * Everything done while holding the critical is in take_range, push_range and finish_range:
 * the waiting belongs there (to what the holder does inside its hold), never to partition or
 * small_sort, which run outside it.
 * usage: quicksort_critical N CUTOFF */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double *a;
static long stack_lo[4096], stack_hi[4096];
static int top;
static long pending; /* ranges pushed or being sorted, not yet finished */

__attribute__((noinline)) int take_range(long *lo, long *hi) {
  if (top == 0) return 0;
  top--;
  *lo = stack_lo[top];
  *hi = stack_hi[top];
  return 1;
}

__attribute__((noinline)) void push_range(long lo, long hi) {
  stack_lo[top] = lo;
  stack_hi[top] = hi;
  top++;
  pending++;
}

__attribute__((noinline)) int finish_range(void) { return --pending == 0; }

__attribute__((noinline)) int all_done(void) { return pending == 0; }

/* Hoare partition around the middle element: [lo, p] <= [p + 1, hi). */
__attribute__((noinline)) long partition(long lo, long hi) {
  double pivot = a[lo + (hi - lo) / 2];
  long i = lo - 1, j = hi;
  for (;;) {
    do i++;
    while (a[i] < pivot);
    do j--;
    while (a[j] > pivot);
    if (i >= j) return j;
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/* A range of at most CUTOFF elements, sorted serially (recursing into the smaller part). */
__attribute__((noinline)) void small_sort(long lo, long hi) {
  while (hi - lo > 16) {
    long p = partition(lo, hi) + 1;
    if (p - lo < hi - p) {
      small_sort(lo, p);
      lo = p;
    } else {
      small_sort(p, hi);
      hi = p;
    }
  }
  for (long i = lo + 1; i < hi; i++) {
    double x = a[i];
    long j = i - 1;
    while (j >= lo && a[j] > x) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
}

__attribute__((noinline)) void sort_worker(long cutoff) {
  for (;;) {
    long lo = 0, hi = 0;
    int got, done;
#pragma omp critical(work_stack)
    {
      got = take_range(&lo, &hi);
      done = !got && all_done();
    }
    if (done) return;
    if (!got) continue; /* nothing to take: straight back in */
    while (hi - lo > cutoff) {
      long p = partition(lo, hi) + 1;
      long small_lo = lo, small_hi = p, big_lo = p, big_hi = hi;
      if (p - lo > hi - p) {
        small_lo = p, small_hi = hi, big_lo = lo, big_hi = p;
      }
#pragma omp critical(work_stack)
      push_range(big_lo, big_hi);
      lo = small_lo, hi = small_hi;
    }
    small_sort(lo, hi);
#pragma omp critical(work_stack)
    finish_range();
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 4000000;
  long cutoff = argc > 2 ? atol(argv[2]) : n / 16;
  a = malloc(n * sizeof *a);
  unsigned long x = 88172645463325252UL;
  for (long i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    a[i] = (double)(x >> 11);
  }
  push_range(0, n);
#pragma omp parallel
  sort_worker(cutoff);
  long bad = 0;
  for (long i = 1; i < n; i++) bad += a[i - 1] > a[i];
  printf("quicksort_critical: %ld elements, %d threads, %s\n", n, omp_get_max_threads(), bad ? "NOT SORTED" : "sorted");
  free(a);
  return bad != 0;
}
