package org.ompprof.sampler.record;

import org.ompprof.sampler.omp.TaskFlags;

/** The OMPT task frame of one ancestor level, as ompt_get_task_info reported it. */
public record TaskLevel(
        long exitFrame,
        long enterFrame,
        int exitFrameFlags,
        int enterFrameFlags,
        int taskFlags,
        int threadNum,
        long taskId,
        long parallelId,
        int infoResult) {
    /** Whether the task is an explicit one (a task construct's), not an initial or implicit one. */
    public boolean explicit() {
        return (taskFlags & TaskFlags.EXPLICIT) != 0;
    }
}
