/* A program without OpenMP: ompprof must warn and still run it. */
#include <stdio.h>
int main(void) {
  printf("no openmp here\n");
  return 0;
}
