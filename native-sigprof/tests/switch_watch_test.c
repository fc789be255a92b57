/*
 * Unit tests of cpu mode's context-switch watch (src/switch_watch.c): when it asks for the
 * thread's switch count, which rates count as above the limit (strictly above, per CPU-second of
 * the window), that a move needs SWITCH_WINDOWS_IN_ROW such windows in a row, and that nothing is
 * asked once a thread moved. Seeded random sequences of windows are checked against a model
 * computed in floating point.
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

/* One whole window of 1 ms samples with `n` switches in it; the verdict. */
static int window(struct switch_watch *w, uint64_t n, uint64_t limit)
{
  samples_until_read(w, MS);
  return switch_watch_read(w, w->switches + n, limit);
}

/* The switches that make a whole window's rate exactly `limit` per CPU-second. */
static uint64_t at_limit(uint64_t limit)
{
  return limit * SWITCH_WINDOW_NS / 1000000000u;
}

static void first_sample_begins_a_window(void)
{
  struct switch_watch w = {0};
  CHECK(switch_watch_sample(&w, MS) == 1, "the first sample asks for the count");
  CHECK(switch_watch_read(&w, 1000000, SWITCH_LIMIT_DEFAULT) == 0, "no window has ended: never a move");
  CHECK(w.started && w.switches == 1000000 && w.cpu_ns == 0, "the window begins at that count");
  CHECK(samples_until_read(&w, MS) == (int)(SWITCH_WINDOW_NS / MS), "a window is %llu ms of CPU time",
        (unsigned long long)(SWITCH_WINDOW_NS / MS));
  uint64_t busy = 630 * SWITCH_WINDOW_NS / 1000000000u + 1; /* a busy thread's preemptions, rounded up */
  CHECK(switch_watch_read(&w, 1000000 + busy, SWITCH_LIMIT_DEFAULT) == 0, "%" PRIu64 " switches in a window", busy);
}

static void a_watch_begun_at_arming_needs_no_first_sample(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 700);
  CHECK(switch_watch_sample(&w, MS) == 0, "the first sample only counts");
  CHECK(samples_until_read(&w, MS) == (int)(SWITCH_WINDOW_NS / MS) - 1, "the window began at arming");
  CHECK(switch_watch_read(&w, 700 + 5 * at_limit(SWITCH_LIMIT_DEFAULT), SWITCH_LIMIT_DEFAULT) == 0,
        "one window five times over counts as one");
  CHECK(w.over == 1, "one window above the limit: %u", w.over);
}

static void windows_in_a_row_strictly_above_the_limit_move(void)
{
  for (int extra = -1; extra <= 1; extra++) {
    struct switch_watch w = {0};
    switch_watch_begin(&w, 5);
    int moves = 0;
    for (unsigned i = 1; i <= SWITCH_WINDOWS_IN_ROW; i++) {
      int move = window(&w, at_limit(SWITCH_LIMIT_DEFAULT) + (uint64_t)(int64_t)extra, SWITCH_LIMIT_DEFAULT);
      CHECK(move == (extra > 0 && i == SWITCH_WINDOWS_IN_ROW), "window %u, %+d switches over the limit: move %d", i,
            extra, move);
      moves += move;
    }
    CHECK(moves == (extra > 0), "%+d: %d moves", extra, moves);
  }
}

static void a_burst_does_not_move(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 0);
  uint64_t burst = SWITCH_FAR_OVER * at_limit(SWITCH_LIMIT_DEFAULT), busy = at_limit(630);
  for (int round = 0; round < 50; round++) {
    for (unsigned i = 0; i + 1 < SWITCH_WINDOWS_IN_ROW; i++)
      CHECK(window(&w, burst, SWITCH_LIMIT_DEFAULT) == 0, "round %d: a burst of %u windows", round, i + 1);
    CHECK(window(&w, busy, SWITCH_LIMIT_DEFAULT) == 0, "round %d: then a quiet window", round);
    CHECK(w.over == 0, "the quiet window ends the run: %u", w.over);
  }
}

static void far_over_the_limit_moves_at_once(void)
{
  for (int extra = 0; extra <= 1; extra++) {
    struct switch_watch w = {0};
    switch_watch_begin(&w, 0);
    int move = window(&w, SWITCH_FAR_OVER * at_limit(SWITCH_LIMIT_DEFAULT) + (uint64_t)extra, SWITCH_LIMIT_DEFAULT);
    CHECK(move == extra, "%u times the limit%s: move %d", SWITCH_FAR_OVER, extra ? " and one" : "", move);
  }
}

static void a_window_may_end_in_one_long_sample(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 0);
  CHECK(switch_watch_sample(&w, 3 * SWITCH_WINDOW_NS) == 1, "one sample standing for three windows ends one");
  uint64_t n = 3 * at_limit(1000); /* 1000 per CPU-second: not above */
  CHECK(switch_watch_read(&w, n, 1000) == 0, "%" PRIu64 " switches in three windows: 1000 per CPU-second", n);
  CHECK(w.cpu_ns == 0 && w.switches == n && w.over == 0, "the next window begins where this one ended");
}

static void moved_threads_are_not_watched(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 0);
  int move = 0;
  for (unsigned i = 0; i < SWITCH_WINDOWS_IN_ROW && !move; i++)
    move = window(&w, 100000, 1000);
  CHECK(move == 1, "20 million per CPU-second moves");
  CHECK(w.over == 1, "at once, in the first window: %u", w.over);
  switch_watch_moved(&w);
  int asked = 0;
  for (int i = 0; i < 1000; i++)
    asked += switch_watch_sample(&w, 50 * MS);
  CHECK(asked == 0, "a moved thread asked %d times", asked);
}

static void a_limit_of_zero_never_moves(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 0);
  int moves = 0;
  for (int i = 0; i < 10; i++)
    moves += window(&w, UINT64_C(1) << 40, 0);
  CHECK(moves == 0, "limit 0: %d moves", moves);
}

static void counts_that_go_back_are_no_switches(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 1000);
  samples_until_read(&w, MS);
  CHECK(switch_watch_read(&w, 10, 1) == 0 && w.over == 0, "a count below the window's start counts as none");
}

static void extremes_do_not_overflow(void)
{
  struct switch_watch w = {0};
  switch_watch_begin(&w, 0);
  switch_watch_sample(&w, UINT64_MAX / 2);
  switch_watch_read(&w, UINT64_MAX / 2, UINT32_MAX);
  CHECK(w.over == 0, "huge CPU time, huge limit: about 1 per CPU-second is not above");
  w = (struct switch_watch){0};
  switch_watch_begin(&w, 0);
  samples_until_read(&w, MS);
  switch_watch_read(&w, UINT64_MAX, 2000);
  CHECK(w.over == 1, "a huge count in one window is above");
}

/* Random windows: a move exactly when the last SWITCH_WINDOWS_IN_ROW rates were above the limit
 * (rates within a millionth of it left out). */
static void random_windows_agree_with_the_model(void)
{
  test_rng_seed(20261127);
  int moves = 0, above = 0, windows = 0;
  for (int round = 0; round < 2000; round++) {
    uint64_t limit = 1 + test_rng() % 100000, count = test_rng() % (UINT64_C(1) << 40);
    struct switch_watch w = {0};
    CHECK(switch_watch_sample(&w, 1 + test_rng() % (5 * MS)) == 1, "first sample");
    switch_watch_read(&w, count, limit);
    unsigned run = 0;
    int near = 0;
    for (int k = 0; k < 12; k++) {
      uint64_t cpu = 0;
      int asked = 0;
      while (!asked) {
        uint64_t each = 1 + test_rng() % (3 * MS);
        cpu += each;
        asked = switch_watch_sample(&w, each);
        CHECK(asked == (cpu >= SWITCH_WINDOW_NS), "asked %d after %" PRIu64 " ns", asked, cpu);
      }
      /* mostly near the limit: both verdicts, and runs of either */
      uint64_t scale = test_rng() % 8 ? 2 : 2 * SWITCH_FAR_OVER; /* now and then far over */
      uint64_t n = test_rng() % (limit * cpu / 1000000000u * scale + 2);
      double rate = (double)n * 1e9 / (double)cpu;
      near |= rate > limit * 0.999999 && rate < limit * 1.000001;
      near |= rate > limit * SWITCH_FAR_OVER * 0.999999 && rate < limit * SWITCH_FAR_OVER * 1.000001;
      run = rate > limit ? run + 1 : 0;
      count += n;
      int move = switch_watch_read(&w, count, limit);
      if (!near)
        CHECK(move == (run >= SWITCH_WINDOWS_IN_ROW || rate > limit * SWITCH_FAR_OVER),
              "%" PRIu64 " switches in %" PRIu64 " ns (%.1f/s), limit %" PRIu64 ", %u in a row: move %d", n, cpu, rate,
              limit, run, move);
      moves += move;
      above += rate > limit;
      windows++;
    }
  }
  CHECK(moves > 500 && above > windows / 4 && above < 3 * windows / 4, "exercised: %d moves, %d of %d windows above",
        moves, above, windows);
}

int main(void)
{
  first_sample_begins_a_window();
  a_watch_begun_at_arming_needs_no_first_sample();
  windows_in_a_row_strictly_above_the_limit_move();
  a_burst_does_not_move();
  far_over_the_limit_moves_at_once();
  a_window_may_end_in_one_long_sample();
  moved_threads_are_not_watched();
  a_limit_of_zero_never_moves();
  counts_that_go_back_are_no_switches();
  extremes_do_not_overflow();
  random_windows_agree_with_the_model();
  printf("switch_watch_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
