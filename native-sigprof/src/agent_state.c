/* The agent's global state (agent_state.h): the only definition of it. */
#include "agent_state.h"

struct agent ompprof_g;
