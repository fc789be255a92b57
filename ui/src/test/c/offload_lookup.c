/* A lookup service offloaded to the host device: a sorted table of KEYS keys and their values
 * is mapped to the device once, in a target data region opened by serve(); each of BATCHES
 * batches maps QUERIES query keys to the device, runs one kernel (target teams distribute
 * parallel for) that binary-searches every query in the table, and maps the answers back.
 *
 * Known answer: BATCHES kernels, all launched from lookup_batch(); to the device the table
 * once (KEYS doubles and KEYS ints, launched from serve()) and QUERIES doubles per batch
 * (from lookup_batch()); from the device QUERIES ints per batch (from lookup_batch()).
 * usage: offload_lookup [BATCHES] */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

enum { KEYS = 1 << 18, QUERIES = 1 << 16 };
static double keys[KEYS];
static int values[KEYS];
static double queries[QUERIES];
static int answers[QUERIES];

#define NO_TAIL_CALL() __asm__ volatile("")

/* Every query key is in the table except one in eight, which falls between two keys. */
static void make_queries(int batch) {
  unsigned s = 2654435761u * (unsigned)(batch + 1);
  for (int i = 0; i < QUERIES; i++) {
    s = s * 1664525u + 1013904223u;
    int k = (int)(s >> 8) % KEYS;
    queries[i] = (i % 8 == 7) ? keys[k] + 1.5 : keys[k];
  }
}

__attribute__((noinline)) static void lookup_batch(void) {
#pragma omp target teams distribute parallel for map(to: queries[0:QUERIES]) map(from: answers[0:QUERIES])
  for (int i = 0; i < QUERIES; i++) {
    int lo = 0, hi = KEYS - 1, found = -1;
    while (lo <= hi) {
      int mid = lo + (hi - lo) / 2;
      if (keys[mid] == queries[i]) { found = values[mid]; break; }
      if (keys[mid] < queries[i]) lo = mid + 1; else hi = mid - 1;
    }
    answers[i] = found;
  }
  NO_TAIL_CALL();
}

__attribute__((noinline)) static long serve(int batches) {
  long found = 0, sum = 0;
#pragma omp target data map(to: keys[0:KEYS], values[0:KEYS])
  {
    for (int b = 0; b < batches; b++) {
      make_queries(b);
      lookup_batch();
      for (int i = 0; i < QUERIES; i++) {
        if (answers[i] >= 0) { found++; sum += answers[i]; }
      }
    }
  }
  NO_TAIL_CALL();
  return found * 1000003 + sum % 1000003;
}

int main(int argc, char **argv) {
  int batches = argc > 1 ? atoi(argv[1]) : 6;
  for (int i = 0; i < KEYS; i++) {
    keys[i] = 3.0 * i;
    values[i] = i % 1000;
  }
  long check = serve(batches);
  printf("offload_lookup: %d devices, %d batches of %d queries, check %ld\n", omp_get_num_devices(), batches, QUERIES, check);
  return 0;
}
