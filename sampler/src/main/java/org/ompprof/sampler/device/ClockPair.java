package org.ompprof.sampler.device;

/** One reading of a device clock and the host clock taken together (both in nanoseconds). */
public record ClockPair(long hostNs, long deviceNs) {}
