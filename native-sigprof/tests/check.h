/* The C tests' one assertion: counts passes and failures, says where a failure is and why,
 * and lets the test go on so one run shows every failure; and their random numbers. */
#ifndef OMPPROF_TEST_CHECK_H
#define OMPPROF_TEST_CHECK_H
#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                                                                                               \
  do {                                                                                                                 \
    if (cond) {                                                                                                        \
      passed++;                                                                                                        \
    } else {                                                                                                           \
      failed++;                                                                                                        \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                                  \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
    }                                                                                                                  \
  } while (0)

/* Seeded random inputs that repeat run to run (xorshift64). */
#include <stdint.h>
static uint64_t test_rng_state = 0x9e3779b97f4a7c15ull;
static inline void test_rng_seed(uint64_t seed)
{
  test_rng_state = seed ? seed : 1;
}
static inline uint64_t test_rng(void)
{
  test_rng_state ^= test_rng_state << 13;
  test_rng_state ^= test_rng_state >> 7;
  test_rng_state ^= test_rng_state << 17;
  return test_rng_state;
}
#endif
