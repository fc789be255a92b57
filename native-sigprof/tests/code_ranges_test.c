/* The code ranges: which addresses are code, and readers on other threads that never act on a table caught
 * half-rewritten while libraries come and go. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "code_ranges.h"

static volatile int stop;
static uint64_t own_code, libc_code, data_word;

struct reader_result {
  long answers, wrong, retries;
};

/* Asks about three addresses whose answers never change, whatever is loaded: counts the answers that were wrong and
 * that the sequence count let through. */
static void *reader(void *arg)
{
  struct reader_result *r = arg;
  while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
    uint32_t seq;
    int own, libc, data;
    for (;;) {
      seq = code_ranges_begin();
      own = code_ranges_contains(own_code);
      libc = code_ranges_contains(libc_code);
      data = code_ranges_contains(data_word);
      if (!code_ranges_changed(seq))
        break;
      r->retries++;
    }
    r->answers++;
    r->wrong += !own || !libc || data;
  }
  return NULL;
}

int main(void)
{
  CHECK(code_ranges_contains((uint64_t)(uintptr_t)&main) == 0, "no ranges before the first refresh");
  CHECK(code_ranges_init() == 0, "init");
  code_ranges_refresh();
  own_code = (uint64_t)(uintptr_t)&main;
  libc_code = (uint64_t)(uintptr_t)&getpid;
  data_word = (uint64_t)(uintptr_t)&stop;
  uint64_t stack_word = (uint64_t)(uintptr_t)&own_code;
  CHECK(code_ranges_contains(own_code), "the program's main is code");
  CHECK(code_ranges_contains(libc_code), "libc's getpid is code");
  CHECK(!code_ranges_contains(data_word), "a global variable is not code");
  CHECK(!code_ranges_contains((uint64_t)(uintptr_t)&stack_word), "a stack address is not code");
  CHECK(!code_ranges_contains(0) && !code_ranges_contains(UINT64_MAX), "the ends of the address space");

  void *lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL); /* the test is not linked with it */
  CHECK(lib != NULL, "dlopen libm: %s", dlerror());
  void *fn = lib ? dlsym(lib, "cbrt") : NULL;
  uint64_t loaded = (uint64_t)(uintptr_t)fn;
  CHECK(fn != NULL, "libm's cbrt");
  CHECK(!code_ranges_contains(loaded), "a library loaded since the refresh is not known yet");
  code_ranges_refresh();
  CHECK(code_ranges_contains(loaded), "after the refresh it is");
  if (lib)
    dlclose(lib);

  /* Rewrites while two readers ask: the table shifts as the library's ranges come and go. */
  struct reader_result results[2] = {0};
  pthread_t readers[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&readers[i], NULL, reader, &results[i]);
  for (int round = 0; round < 2000; round++) {
    void *h = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
    code_ranges_refresh();
    if (h)
      dlclose(h);
    code_ranges_refresh();
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 2; i++) {
    pthread_join(readers[i], NULL);
    CHECK(results[i].answers > 0, "reader %d answered", i);
    CHECK(results[i].wrong == 0, "reader %d: %ld of %ld answers wrong (%ld retries)", i, results[i].wrong,
          results[i].answers, results[i].retries);
  }
  printf("code_ranges_test: %d passed, %d failed (readers retried %ld and %ld times)\n", passed, failed,
         results[0].retries, results[1].retries);
  return failed != 0;
}
