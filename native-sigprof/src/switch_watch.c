/* The context-switch rate decision of cpu mode (switch_watch.h). */
#include "switch_watch.h"

void switch_watch_begin(struct switch_watch *w, uint64_t switches) /* signal-safe */
{
  w->started = 1;
  w->switches = switches;
  w->cpu_ns = 0;
  w->over = 0;
}

int switch_watch_sample(struct switch_watch *w, uint64_t cpu_ns) /* signal-safe */
{
  if (w->moved)
    return 0;
  if (!w->started)
    return 1;
  w->cpu_ns += cpu_ns;
  return w->cpu_ns >= SWITCH_WINDOW_NS;
}

int switch_watch_read(struct switch_watch *w, uint64_t switches, uint64_t limit) /* signal-safe */
{
  int began = w->started;
  uint64_t cpu = w->cpu_ns, n = switches >= w->switches ? switches - w->switches : 0;
  w->started = 1;
  w->switches = switches;
  w->cpu_ns = 0;
  /* n / (cpu / 1e9) > limit, without division or overflow */
  int above = began && limit && cpu && (unsigned __int128)n * 1000000000u > (unsigned __int128)limit * cpu;
  w->over = above ? w->over + 1 : 0;
  return w->over >= SWITCH_WINDOWS_IN_ROW;
}

void switch_watch_moved(struct switch_watch *w) /* signal-safe */
{
  w->moved = 1;
}
