package org.ompprof.calltree.build;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code ompprof.BuildStage}: one stage of building a profile from a raw recording
 * (decode, unwind, stitch, symbolize, aggregate, blame, write). The stages interleave sample by
 * sample, so each event spans the whole build and says how much of it was the stage's own: the
 * stages' times add up to the build's ({@code ompprof.ProfileBuild}).
 */
@Name("ompprof.BuildStage")
@Label("Profile Build Stage")
@Category({"ompprof", "Profile Build"})
@Description("One stage of building a profile: its own time within the build (the event spans the build) and the "
        + "items it handled")
@StackTrace(false)
final class BuildStageEvent extends jdk.jfr.Event {
    private static final BuildStageEvent PROBE = new BuildStageEvent();

    @Label("Stage")
    String stage;

    @Label("Stage Time")
    @Description("The time this stage took, summed over the build")
    @Timespan(Timespan.NANOSECONDS)
    long stageTime;

    @Label("Share")
    @Description("Stage time over the build's wall time")
    @Percentage
    double share;

    @Label("Items")
    long items;

    @Label("Item Kind")
    @Description("What the items are: records decoded, stacks unwound, samples, pcs symbolized, bytes written")
    String itemKind;

    static boolean on() {
        return PROBE.isEnabled();
    }
}
