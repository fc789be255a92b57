/* Scopes the profile with omp_control_tool: work before the start, work between start and
 * pause, work after the pause. Recorded with --start-paused, only inside_span may be sampled.
 * Prints what each omp_control_tool call returned (0 from ompprof's agent). */
#include <stdio.h>
#include <omp.h>
#include "omp_util.h"

/* keeps each phase's own frame (and its outlined body's) on the stack: no tail calls */
#define NO_TAIL_CALL() __asm__ volatile("")

__attribute__((noinline)) static void before_start(void) {
#pragma omp parallel
  {
    spin_for(0.3);
    NO_TAIL_CALL();
  }
  NO_TAIL_CALL();
}

__attribute__((noinline)) static void inside_span(void) {
#pragma omp parallel
  {
    spin_for(0.4);
    NO_TAIL_CALL();
  }
  NO_TAIL_CALL();
}

__attribute__((noinline)) static void after_pause(void) {
#pragma omp parallel
  {
    spin_for(0.3);
    NO_TAIL_CALL();
  }
  NO_TAIL_CALL();
}

int main(void) {
  before_start();
  int started = omp_control_tool(omp_control_tool_start, 0, NULL);
  inside_span();
  int flushed = omp_control_tool(omp_control_tool_flush, 0, NULL);
  int paused = omp_control_tool(omp_control_tool_pause, 0, NULL);
  after_pause();
  printf("control_tool: start %d, flush %d, pause %d\n", started, flushed, paused);
  return 0;
}
