package org.ompprof.sampler.record;

/** One PT_LOAD segment of a loaded module (runtime address = vaddr + load bias). */
public record ModuleSegment(long vaddr, long memSize, long offset, long fileSize, int flags) {}
