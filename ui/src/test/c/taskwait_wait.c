/* Known answer (taskwait): in a single region the producer creates a task of TASK seconds,
 * lets the other thread take it (it waits at the single's barrier, where it runs tasks), then
 * waits for it at a taskwait: about TASK - 5 ms of taskwait state per round on the producer,
 * while the other thread works in the task.
 * usage: taskwait_wait ROUNDS TASK */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "omp_util.h"

volatile int done;

__attribute__((noinline)) void task_body(double s) { spin_for(s); done++; }
__attribute__((noinline)) void producer(int rounds, double s) {
  for (int r = 0; r < rounds; r++) {
#pragma omp task
    task_body(s);
    spin_for(0.005); /* the other thread steals the task meanwhile */
#pragma omp taskwait
    done++;
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  double task = argc > 2 ? atof(argv[2]) : 0.03;
#pragma omp parallel num_threads(2)
#pragma omp single
  producer(rounds, task);
  printf("taskwait_wait: %d\n", done);
  return 0;
}
