package org.ompprof.sampler.record;

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
        int infoResult) {}
