/*
 * The frames libomp reports for an undeferred task (a task whose if clause is
 * false), put right where the creating code keeps no frame pointer.
 */
#ifndef OMPPROF_UNDEFERRED_FRAMES_H
#define OMPPROF_UNDEFERRED_FRAMES_H

#include <omp-tools.h>
#include <stdint.h>

#include "thread_state.h"

/* From the task_create callback of an undeferred task, in which libomp has already made the new task current:
 * `sp` is the callback's own stack pointer, `parent` the creating task's frame as the callback got it. */
void undeferred_frames_fix(struct priv *p, uint64_t sp, const ompt_frame_t *parent, const ompt_data_t *task,
                           uint64_t codeptr);

#endif
