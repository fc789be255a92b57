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
  unsigned __int128 rate = (unsigned __int128)n * 1000000000u, at_limit = (unsigned __int128)limit * cpu;
  int counts = began && limit && cpu;
  w->over = counts && rate > at_limit ? w->over + 1 : 0;
  return w->over >= SWITCH_WINDOWS_IN_ROW || (counts && rate > SWITCH_FAR_OVER * at_limit);
}

void switch_watch_moved(struct switch_watch *w) /* signal-safe */
{
  w->moved = 1;
}
