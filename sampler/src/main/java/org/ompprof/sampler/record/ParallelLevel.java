package org.ompprof.sampler.record;

/** One enclosing parallel region, as ompt_get_parallel_info reported it. */
public record ParallelLevel(long parallelId, int teamSize, int infoResult) {}
