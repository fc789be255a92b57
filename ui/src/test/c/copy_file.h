/* Copies a file, for the test programs that load a library from a temporary copy. */
#ifndef COPY_FILE_H
#define COPY_FILE_H
#include <stdio.h>
#include <stdlib.h>

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  if (!in || !out) { perror("copy"); exit(2); }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  fclose(in);
  fclose(out);
}
#endif
