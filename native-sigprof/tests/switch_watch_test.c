/*
 * Unit tests of cpu mode's context-switch watch (src/switch_watch.c): when it asks for the
 * thread's switch count, which rates move a thread (strictly above the limit, per CPU-second of
 * the window), and that nothing is asked once a thread moved. Seeded random windows are checked
 * against the rate computed in floating point.
 */
#include <inttypes.h>
#include <stdio.h>

#include "switch_watch.h"

#include "check.h"

#define MS 1000000ull

/* Feeds samples of `each` ns until the watch asks for a reading; returns how many it took. */
static int samples_until_read(struct switch_watch *w, uint64_t each)
{
  for (int n = 1; n < 100000; n++)
    if (switch_watch_sample(w, each))
      return n;
  return -1;
}

static void first_sample_begins_a_window(void)
{
  struct switch_watch w = {0};
  CHECK(switch_watch_sample(&w, MS) == 1, "the first sample asks for the count");
  CHECK(switch_watch_read(&w, 1000000, SWITCH_LIMIT_DEFAULT) == 0, "no window has ended: never a move");
  CHECK(w.started && w.switches == 1000000 && w.cpu_ns == 0, "the window begins at that count");
  /* the switches before the first sample are not held against the thread */
  CHECK(samples_until_read(&w, MS) == (int)(SWITCH_WINDOW_NS / MS), "a window is %llu ms of CPU time",
        (unsigned long long)(SWITCH_WINDOW_NS / MS));
  CHECK(switch_watch_read(&w, 1000000 + 10, SWITCH_LIMIT_DEFAULT) == 0, "10 switches in 20 ms: 500 per CPU-second");
}

static void strictly_above_the_limit_moves(void)
{
  uint64_t per_window = SWITCH_LIMIT_DEFAULT * (SWITCH_WINDOW_NS / MS) / 1000; /* exactly the limit */
  for (int extra = -1; extra <= 1; extra++) {
    struct switch_watch w = {0};
    switch_watch_sample(&w, MS);
    switch_watch_read(&w, 5, SWITCH_LIMIT_DEFAULT);
    samples_until_read(&w, MS);
    int move = switch_watch_read(&w, 5 + per_window + (uint64_t)(int64_t)extra, SWITCH_LIMIT_DEFAULT);
    CHECK(move == (extra > 0), "%" PRIu64 " switches in a window (limit %u per CPU-second): move %d",
          per_window + extra, SWITCH_LIMIT_DEFAULT, move);
  }
}

static void a_window_may_end_in_one_long_sample(void)
{
  struct switch_watch w = {0};
  switch_watch_sample(&w, MS);
  switch_watch_read(&w, 0, 1000);
  CHECK(switch_watch_sample(&w, 3 * SWITCH_WINDOW_NS) == 1, "one sample standing for three windows ends one");
  CHECK(switch_watch_read(&w, 50, 1000) == 0, "50 switches in 60 ms: 833 per CPU-second, under 1000");
  CHECK(w.cpu_ns == 0 && w.switches == 50, "the next window begins where this one ended");
}

static void moved_threads_are_not_watched(void)
{
  struct switch_watch w = {0};
  switch_watch_sample(&w, MS);
  switch_watch_read(&w, 0, 1000);
  samples_until_read(&w, 2 * MS);
  CHECK(switch_watch_read(&w, 100000, 1000) == 1, "5 million per CPU-second moves");
  switch_watch_moved(&w);
  int asked = 0;
  for (int i = 0; i < 1000; i++)
    asked += switch_watch_sample(&w, 50 * MS);
  CHECK(asked == 0, "a moved thread asked %d times", asked);
}

static void a_limit_of_zero_never_moves(void)
{
  struct switch_watch w = {0};
  switch_watch_sample(&w, MS);
  switch_watch_read(&w, 0, 0);
  samples_until_read(&w, MS);
  CHECK(switch_watch_read(&w, UINT64_C(1) << 40, 0) == 0, "limit 0");
}

static void counts_that_go_back_are_no_switches(void)
{
  struct switch_watch w = {0};
  switch_watch_sample(&w, MS);
  switch_watch_read(&w, 1000, 1);
  samples_until_read(&w, MS);
  CHECK(switch_watch_read(&w, 10, 1) == 0, "a count below the window's start counts as none");
}

static void extremes_do_not_overflow(void)
{
  struct switch_watch w = {0};
  switch_watch_sample(&w, MS);
  switch_watch_read(&w, 0, UINT32_MAX);
  switch_watch_sample(&w, UINT64_MAX / 2);
  CHECK(switch_watch_read(&w, UINT64_MAX / 2, UINT32_MAX) == 0, "huge CPU time, huge limit: about 1 per CPU-second");
  w = (struct switch_watch){0};
  switch_watch_sample(&w, MS);
  switch_watch_read(&w, 0, 2000);
  samples_until_read(&w, MS);
  CHECK(switch_watch_read(&w, UINT64_MAX, 2000) == 1, "a huge count in one window moves");
}

static void random_windows_agree_with_the_rate(void)
{
  test_rng_seed(20261127);
  int moves = 0, stays = 0;
  for (int round = 0; round < 20000; round++) {
    uint64_t limit = 1 + test_rng() % 100000, base = test_rng() % (UINT64_C(1) << 40);
    struct switch_watch w = {0};
    CHECK(switch_watch_sample(&w, 1 + test_rng() % (5 * MS)) == 1, "first sample");
    switch_watch_read(&w, base, limit);
    uint64_t cpu = 0;
    int asked = 0;
    while (!asked) {
      uint64_t each = 1 + test_rng() % (3 * MS);
      cpu += each;
      asked = switch_watch_sample(&w, each);
      CHECK(asked == (cpu >= SWITCH_WINDOW_NS), "asked %d after %" PRIu64 " ns", asked, cpu);
    }
    uint64_t n = test_rng() % (limit * cpu / 1000000000u * 2 + 2);
    double rate = (double)n * 1e9 / (double)cpu;
    int move = switch_watch_read(&w, base + n, limit);
    if (rate > limit * 1.000001 || rate < limit * 0.999999)
      CHECK(move == (rate > limit), "%" PRIu64 " switches in %" PRIu64 " ns (%.1f/s), limit %" PRIu64 ": move %d", n,
            cpu, rate, limit, move);
    moves += move;
    stays += !move;
  }
  CHECK(moves > 1000 && stays > 1000, "both verdicts exercised: %d moves, %d stays", moves, stays);
}

int main(void)
{
  first_sample_begins_a_window();
  strictly_above_the_limit_moves();
  a_window_may_end_in_one_long_sample();
  moved_threads_are_not_watched();
  a_limit_of_zero_never_moves();
  counts_that_go_back_are_no_switches();
  extremes_do_not_overflow();
  random_windows_agree_with_the_rate();
  printf("switch_watch_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
