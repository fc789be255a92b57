/* An OMPT tool that registers callbacks and does nothing in them: the floor libomp's own dispatch
 * puts under any tool (bench-rates, bench-instructions). OMP_TOOL_FLOOR_EVENTS picks the callbacks:
 * unset, the ones ompprof registers in wall mode; "none", none at all (what attaching any tool costs);
 * else a comma-separated list of ompt_callback_* names without the prefix (task_create,task_schedule). */
#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>

static void nothing(void)
{
}

static const struct {
  const char *name;
  ompt_callbacks_t event;
} events[] = {
    {"thread_begin", ompt_callback_thread_begin},     {"thread_end", ompt_callback_thread_end},
    {"parallel_begin", ompt_callback_parallel_begin}, {"parallel_end", ompt_callback_parallel_end},
    {"implicit_task", ompt_callback_implicit_task},   {"task_create", ompt_callback_task_create},
    {"task_schedule", ompt_callback_task_schedule},   {"mutex_acquire", ompt_callback_mutex_acquire},
    {"mutex_acquired", ompt_callback_mutex_acquired}, {"mutex_released", ompt_callback_mutex_released},
    {"lock_init", ompt_callback_lock_init},           {"lock_destroy", ompt_callback_lock_destroy},
    {"nest_lock", ompt_callback_nest_lock},           {"control_tool", ompt_callback_control_tool},
};

/* Whether `name` is one of the comma-separated words of `list`. */
static int listed(const char *list, const char *name)
{
  size_t n = strlen(name);
  for (const char *at = list; (at = strstr(at, name)) != NULL; at += n)
    if ((at == list || at[-1] == ',') && (at[n] == ',' || at[n] == '\0'))
      return 1;
  return 0;
}

static int init(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
  (void)device;
  (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  const char *chosen = getenv("OMP_TOOL_FLOOR_EVENTS");
  for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
    if (chosen == NULL || listed(chosen, events[i].name))
      set(events[i].event, (ompt_callback_t)nothing);
  return 1;
}

static void fini(ompt_data_t *data)
{
  (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
  (void)version;
  (void)runtime;
  static ompt_start_tool_result_t result = {init, fini, {0}};
  return &result;
}
