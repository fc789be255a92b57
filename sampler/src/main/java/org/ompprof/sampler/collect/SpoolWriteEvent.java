package org.ompprof.sampler.collect;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code ompprof.SpoolWrite}: one block of a thread's records deflated and appended to
 * the spool file, or a module image copied into it.
 */
@Name("ompprof.SpoolWrite")
@Label("Spool Write")
@Category({"ompprof", "Collector"})
@Description("A block of drained records deflated into the spool file (or a module image copied there)")
@StackTrace(false)
final class SpoolWriteEvent extends jdk.jfr.Event {
    private static final SpoolWriteEvent PROBE = new SpoolWriteEvent();

    @Label("Thread")
    @Description("The agent's thread number (0 for a module image)")
    int thread;

    @Label("What")
    @Description("samples, callback records or module image")
    String what;

    @Label("Raw Bytes")
    @DataAmount
    long rawBytes;

    @Label("Stored Bytes")
    @Description("Bytes in the file after deflating")
    @DataAmount
    long storedBytes;

    static boolean on() {
        return PROBE.isEnabled();
    }
}
