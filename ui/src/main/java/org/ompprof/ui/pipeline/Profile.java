package org.ompprof.ui.pipeline;

import org.ompprof.calltree.CallingContextTree;
import org.ompprof.unwinder.stitch.StitchCounters;

/** A recording turned into a calling-context tree, with what it cost to get there. */
public record Profile(CallingContextTree tree, StitchCounters counters, long samples) {}
