/*
 * Every OpenMP thread blocks COUNT times for MS milliseconds in the call MODE names, with about
 * 2 ms of computing between two calls. A profiler must not change that: it prints the region's
 * elapsed time, how many calls came back early (EINTR, or before their time was up) and the
 * time all threads spent in the calls (more than asked on a busy machine: a woken thread may
 * wait for a CPU).
 * It first sleeps SETTLE ms, untimed (a profiler's collector has started by then).
 *   usage: sleepers MODE [COUNT] [MS] [SETTLE]
 *   MODE: usleep nanosleep poll select epoll_wait cond_timedwait sem_timedwait pipe_read
 */
#include <errno.h>
#include <omp.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec deadline_in(int ms)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  long ns = ts.tv_nsec + ms * 1000000L;
  ts.tv_sec += ns / 1000000000L;
  ts.tv_nsec = ns % 1000000000L;
  return ts;
}

struct writer {
  int ask, answer, count, ms;
};

/* The other end of pipe_read's pipe: a plain thread that answers each request MS ms after it came. */
static void *answer_slowly(void *arg)
{
  struct writer *w = arg;
  char c;
  for (int i = 0; i < w->count; i++) {
    if (read(w->ask, &c, 1) != 1) abort();
    struct timespec ts = {0, w->ms * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
    if (write(w->answer, "x", 1) != 1) abort();
  }
  return NULL;
}

/* One blocking call of about ms milliseconds; returns 0 if it came back early. */
__attribute__((noinline)) int block_once(const char *mode, int ms, const int *pipes)
{
  if (!strcmp(mode, "usleep")) return usleep(ms * 1000) == 0;
  if (!strcmp(mode, "nanosleep")) {
    struct timespec ts = {0, ms * 1000000L};
    return nanosleep(&ts, NULL) == 0;
  }
  if (!strcmp(mode, "poll")) return poll(NULL, 0, ms) == 0;
  if (!strcmp(mode, "select")) {
    struct timeval tv = {0, ms * 1000};
    return select(0, NULL, NULL, NULL, &tv) == 0;
  }
  if (!strcmp(mode, "epoll_wait")) {
    int ep = epoll_create1(0);
    struct epoll_event ev;
    int r = epoll_wait(ep, &ev, 1, ms);
    close(ep);
    return r == 0;
  }
  if (!strcmp(mode, "cond_timedwait")) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    struct timespec until = deadline_in(ms);
    pthread_mutex_lock(&m);
    int r;
    while ((r = pthread_cond_timedwait(&c, &m, &until)) == 0) {} /* nobody signals: 0 is a spurious wakeup */
    pthread_mutex_unlock(&m);
    return r == ETIMEDOUT;
  }
  if (!strcmp(mode, "sem_timedwait")) {
    sem_t s;
    sem_init(&s, 0, 0);
    struct timespec until = deadline_in(ms);
    int r = sem_timedwait(&s, &until);
    int e = errno;
    sem_destroy(&s);
    return r != 0 && e == ETIMEDOUT;
  }
  if (!strcmp(mode, "pipe_read")) {
    char c;
    if (write(pipes[1], "?", 1) != 1) abort();
    return read(pipes[2], &c, 1) == 1;
  }
  fprintf(stderr, "sleepers: unknown mode %s\n", mode);
  exit(2);
}

__attribute__((noinline)) void compute(double seconds)
{
  double end = now_s() + seconds;
  volatile double x = 1;
  while (now_s() < end)
    for (int i = 0; i < 1000; i++) x = x * 1.0000001 + 1e-9;
}

/* Returns the calls that came back early; adds the time spent in them to *in_calls. */
__attribute__((noinline)) int sleeper(const char *mode, int count, int ms, double *in_calls)
{
  int fds[4] = {-1, -1, -1, -1}; /* requests: 0 read, 1 write; answers: 2 read, 3 write */
  pthread_t writer;
  struct writer w;
  if (!strcmp(mode, "pipe_read")) {
    if (pipe(fds) != 0 || pipe(fds + 2) != 0) abort();
    w = (struct writer){fds[0], fds[3], count, ms};
    pthread_create(&writer, NULL, answer_slowly, &w);
  }
  int early = 0;
  for (int i = 0; i < count; i++) {
    double t0 = now_s();
    int ok = block_once(mode, ms, fds);
    double took = now_s() - t0;
    *in_calls += took;
    if (!ok || took < ms / 1e3 * 0.99) early++;
    compute(0.002);
  }
  if (fds[0] >= 0) {
    pthread_join(writer, NULL);
    for (int i = 0; i < 4; i++) close(fds[i]);
  }
  return early;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "usleep";
  int count = argc > 2 ? atoi(argv[2]) : 20;
  int ms = argc > 3 ? atoi(argv[3]) : 20;
  int settle = argc > 4 ? atoi(argv[4]) : 0;
  int early = 0, threads = 0;
  double in_calls = 0;
  if (settle > 0) usleep(settle * 1000);
  double t0 = now_s();
#pragma omp parallel reduction(+ : early, in_calls)
  {
    early += sleeper(mode, count, ms, &in_calls);
#pragma omp single
    threads = omp_get_num_threads();
  }
  printf("sleepers %s: %d threads, %d calls of %d ms each, elapsed %.4f s, early %d, in calls %.4f s\n", mode, threads,
         count, ms, now_s() - t0, early, in_calls);
  return 0;
}
