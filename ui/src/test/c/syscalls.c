/* Blocking system calls in a sampled OpenMP thread, each written as a careful program writes
 * it (retrying on EINTR with the time left): the printed outcomes are the same with and
 * without a profiler's signals. Thread 1 wakes thread 0's waits after DELAY. How often EINTR
 * was seen goes to stderr, for information. */
#include <errno.h>
#include <stdatomic.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <omp.h>
#include "omp_util.h"

#define DELAY 0.3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;
static int pipefd[2];
static int eintr_sleep, eintr_poll, eintr_read;
/* the waker's steps wait for the waiter's, so the outcomes do not depend on how the threads are scheduled */
static atomic_int poll_done, timedwait_done;

static void wait_for(atomic_int *flag) {
  struct timespec ms = {0, 1000000L};
  while (!atomic_load(flag)) nanosleep(&ms, NULL);
}

static void sleep_all(double seconds) {
  struct timespec left = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) eintr_sleep++;
}

static void waiter(void) {
  double t0 = now_s();
  sleep_all(DELAY);
  printf("nanosleep: %s\n", now_s() - t0 >= DELAY * 0.95 ? "slept it all" : "cut short");

  /* poll on a pipe nobody writes to yet, for DELAY, retried with the time left */
  struct pollfd p = {pipefd[0], POLLIN, 0};
  double end = now_s() + DELAY / 3;
  int r;
  while ((r = poll(&p, 1, (int)((end - now_s()) * 1000) + 1)) < 0 && errno == EINTR) eintr_poll++;
  printf("poll: %s\n", r == 0 ? "timed out" : r > 0 ? "ready" : strerror(errno));
  atomic_store(&poll_done, 1);

  /* a blocking read that thread 1's write ends; SA_RESTART restarts it after a signal */
  char buf[8];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) < 0 && errno == EINTR) eintr_read++;
  printf("read: %zd bytes\n", n);

  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 100 * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
  pthread_mutex_lock(&lock);
  int timed = 0;
  while (!ready && timed == 0) timed = pthread_cond_timedwait(&cond, &lock, &deadline);
  printf("cond_timedwait: %s\n", timed == ETIMEDOUT ? "timed out" : "woken");
  atomic_store(&timedwait_done, 1);
  while (!ready) pthread_cond_wait(&cond, &lock);
  pthread_mutex_unlock(&lock);
  printf("cond_wait: woken\n");
}

static void waker(void) {
  sleep_all(DELAY * 2);
  wait_for(&poll_done);
  if (write(pipefd[1], "hello", 5) != 5) perror("write");
  sleep_all(DELAY);
  wait_for(&timedwait_done);
  pthread_mutex_lock(&lock);
  ready = 1;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&lock);
}

int main(void) {
  if (pipe(pipefd) != 0) return 1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) waiter();
    else waker();
  }
  fprintf(stderr, "EINTR seen: nanosleep %d, poll %d, read %d\n", eintr_sleep, eintr_poll, eintr_read);
  return 0;
}
