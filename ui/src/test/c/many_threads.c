/* `many_threads N`: N pthreads created outside OpenMP, each sleeping a little (retrying on
 * EINTR) and then running a small OpenMP region of its own (so each becomes an initial
 * thread of libomp, with its own worker): hundreds of threads come and go while sampled. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>
#include "omp_util.h"

static long counts[1024];

static void *body(void *arg) {
  long i = (long)arg;
  struct timespec left = {0, 50 * 1000000L};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
  long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += omp_get_thread_num() + 1;
  counts[i] = sum;
  return NULL;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  if (n > 1024) n = 1024;
#pragma omp parallel num_threads(2)
  spin_for(0.05);
  pthread_t *t = calloc((size_t)n, sizeof *t);
  for (long i = 0; i < n; i++)
    if (pthread_create(&t[i], NULL, body, (void *)i) != 0) return 2;
  long total = 0;
  for (int i = 0; i < n; i++) {
    pthread_join(t[i], NULL);
    total += counts[i];
  }
  printf("joined %d threads, total %ld\n", n, total);
  return 0;
}
