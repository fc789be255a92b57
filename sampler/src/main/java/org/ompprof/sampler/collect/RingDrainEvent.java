package org.ompprof.sampler.collect;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code ompprof.RingDrain}: one pass of the drainer over every slot's rings that
 * found something, with what it moved and how full the fullest ring was when it looked.
 */
@Name("ompprof.RingDrain")
@Label("Ring Drain")
@Category({"ompprof", "Collector"})
@Description("One pass of the drainer over the shared-memory rings, while the program runs and once at its end")
@StackTrace(false)
final class RingDrainEvent extends jdk.jfr.Event {
    /** Never committed: asks whether the event is on without allocating one per pass. */
    private static final RingDrainEvent PROBE = new RingDrainEvent();

    @Label("Records")
    @Description("Records handed to the collector (samples and callback records)")
    long records;

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Rings")
    @Description("Rings that held records")
    int rings;

    @Label("Peak Fill")
    @Description("The most bytes waiting in one ring at this pass")
    @DataAmount
    long peakFillBytes;

    @Label("Peak Fill Ratio")
    @Description("The fullest ring's waiting bytes over its size (a record that does not fit is dropped)")
    @Percentage
    double peakFill;

    static boolean on() {
        return PROBE.isEnabled();
    }
}
