/* A cache guarded per entry, as image and graphics libraries guard their pixel caches: every
 * access takes the entry's omp_lock_t, looks the key up and fills the entry on a miss. Built
 * with gcc -fopenmp, it runs on libomp through its GOMP entry points under ompprof. The
 * locks are taken millions of times a second and (one thread per block of keys) rarely
 * contended. usage: cache_locks [ACCESSES (default 4000000)] */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ENTRIES 4096

struct entry {
  omp_lock_t lock;
  uint64_t key, value;
};

static struct entry cache[ENTRIES];

__attribute__((noinline)) static uint64_t compute(uint64_t key) {
  uint64_t v = key;
  for (int i = 0; i < 8; i++) v = v * 6364136223846793005ull + 1442695040888963407ull;
  return v;
}

__attribute__((noinline)) static uint64_t cache_get(uint64_t key) {
  struct entry *e = &cache[(key * 0x9e3779b97f4a7c15ull) >> 52];
  omp_set_lock(&e->lock);
  if (e->key != key) {
    e->key = key;
    e->value = compute(key);
  }
  uint64_t v = e->value;
  omp_unset_lock(&e->lock);
  return v;
}

int main(int argc, char **argv) {
  long accesses = argc > 1 ? atol(argv[1]) : 4000000;
  for (int i = 0; i < ENTRIES; i++) omp_init_lock(&cache[i].lock);
  uint64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    long n = accesses / omp_get_num_threads();
    uint64_t base = (uint64_t)omp_get_thread_num() << 40;
    for (long i = 0; i < n; i++) sum += cache_get(base + (uint64_t)(i % 20000));
  }
  for (int i = 0; i < ENTRIES; i++) omp_destroy_lock(&cache[i].lock);
  printf("cache_locks: %ld accesses, checksum %llu\n", accesses, (unsigned long long)(sum & 0xffff));
  return 0;
}
