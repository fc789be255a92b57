package org.ompprof.unwinder.stack;

/** The registers a sample records: where the thread was and the two stack registers. */
public record Registers(long rip, long rsp, long rbp) {}
