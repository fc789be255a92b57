/*
 * The program profiled by the smoke test. Each phase makes libomp produce a
 * kind of event or state the harness looks for: worksharing and reductions,
 * an explicit barrier with one thread late (barrier wait), critical sections
 * and locks (mutex events), explicit tasks, masked, omp_control_tool, serial
 * time (workers idle), then a fork child and an exec'd child that must not
 * be profiled.
 *
 *   smoke_omp          full run (~0.6 s)
 *   smoke_omp quick    one parallel region
 *   smoke_omp child    what the exec'd child runs
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

/* noinline + a few frames of depth, so that samples carry a real stack */
__attribute__((noinline)) static uint64_t mix(uint64_t x, int depth)
{
  if (depth > 0)
    return mix(x * 6364136223846793005ull + 1442695040888963407ull, depth - 1) + 1;
  for (int i = 0; i < 64; i++)
    x ^= x << 7, x ^= x >> 9;
  return x;
}

__attribute__((noinline)) static void spin_for(double seconds)
{
  double end = now_s() + seconds;
  uint64_t x = 1;
  while (now_s() < end)
    x = mix(x, 3);
  sink += x;
}

static int parallel_quick(void)
{
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  return n;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "quick") == 0) {
    printf("threads %d\n", parallel_quick());
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "child") == 0)
    return parallel_quick() > 0 ? 0 : 1;

  double t0 = now_s();
  uint64_t sum = 0;

  /* 1: worksharing, ~200 ms of work across the team */
  for (int rep = 0; rep < 20; rep++) {
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (int i = 0; i < 20000; i++)
      sum += mix((uint64_t)i + (uint64_t)rep, 4);
    spin_for(0.002);
  }

  /* 2: thread 0 arrives late at an explicit barrier: the others wait */
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0)
      spin_for(0.08);
#pragma omp barrier
  }

  /* 3: critical sections, a plain lock and a nested lock */
  omp_lock_t lock;
  omp_nest_lock_t nest;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
#pragma omp parallel
  {
    double end = now_s() + 0.06;
    while (now_s() < end) {
#pragma omp critical
      sink += mix(sink, 2);
      omp_set_lock(&lock);
      sink += mix(sink, 3);
      omp_unset_lock(&lock);
      omp_set_nest_lock(&nest);
      omp_set_nest_lock(&nest);
      sink += 1;
      omp_unset_nest_lock(&nest);
      omp_unset_nest_lock(&nest);
      /* ~10 mutex events per iteration: keep their rate well within what
       * the harness's 1 ms drain absorbs even on a loaded machine */
      spin_for(0.00005);
    }
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);

  /* 4: explicit tasks and masked */
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < 40; i++) {
#pragma omp task firstprivate(i)
      spin_for(0.002 + 0.0001 * i);
    }
#pragma omp masked
    spin_for(0.01);
  }

  /* 5: paused sampling, then serial time with the workers idle */
  omp_control_tool(omp_control_tool_pause, 0, NULL);
  spin_for(0.03);
  omp_control_tool(omp_control_tool_start, 0, NULL);
  spin_for(0.08);
  omp_control_tool(omp_control_tool_flush, 0, NULL);

  /* 6: a fork child using OpenMP, and an exec'd child: neither may write
   * into the parent's region */
  fflush(NULL);
  pid_t c = fork();
  if (c == 0)
    exit(parallel_quick() > 0 ? 0 : 1);
  int st1 = 0, st2 = 0;
  waitpid(c, &st1, 0);
  c = fork();
  if (c == 0) {
    execl("/proc/self/exe", argv[0], "child", (char *)NULL);
    _exit(127);
  }
  waitpid(c, &st2, 0);
  if (!WIFEXITED(st1) || WEXITSTATUS(st1) || !WIFEXITED(st2) || WEXITSTATUS(st2)) {
    fprintf(stderr, "smoke_omp: children failed (%d, %d)\n", st1, st2);
    return 1;
  }
  printf("smoke_omp: %d threads, sum %llu, %.0f ms\n", omp_get_max_threads(), (unsigned long long)(sum & 0xffff),
         (now_s() - t0) * 1e3);
  return 0;
}
