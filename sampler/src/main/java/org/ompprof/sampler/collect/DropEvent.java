package org.ompprof.sampler.collect;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code ompprof.RecordsDropped}: records the agent could not write, noticed by the
 * drainer at the pass after it happened (the agent counts them; nothing waits on the program).
 */
@Name("ompprof.RecordsDropped")
@Label("Records Dropped")
@Category({"ompprof", "Collector"})
@Description("Records lost since the drainer's last look: a full ring, or no free slot for a new thread")
@StackTrace(false)
final class DropEvent extends jdk.jfr.Event {
    static final String RING_FULL = "ring full";
    static final String NO_SLOT = "no free slot";

    @Label("Thread")
    @Description("The agent's thread number that owned the ring (0: no slot, the thread is not known)")
    int thread;

    @Label("Cause")
    String cause;

    @Label("Samples")
    long samples;

    @Label("Callback Records")
    long events;

    static void commit(int thread, String cause, long samples, long events) {
        DropEvent e = new DropEvent(); // drops are rare: this path may allocate
        if (!e.shouldCommit()) return;
        e.thread = thread;
        e.cause = cause;
        e.samples = samples;
        e.events = events;
        e.commit();
    }
}
