/* The context-switch rate decision of cpu mode (switch_watch.h). */
#include "switch_watch.h"

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
  if (!began || limit == 0 || cpu == 0)
    return 0;
  /* n / (cpu / 1e9) > limit, without division or overflow */
  return (unsigned __int128)n * 1000000000u > (unsigned __int128)limit * cpu;
}

void switch_watch_moved(struct switch_watch *w) /* signal-safe */
{
  w->moved = 1;
}
