package org.ompprof.calltree.build;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code ompprof.ProfileBuild}: one profile built from a raw recording, from the
 * first read to the file written (or the profile ready in memory); its duration is the build's
 * wall time, which the {@code ompprof.BuildStage} events divide up.
 */
@Name("ompprof.ProfileBuild")
@Label("Profile Build")
@Category({"ompprof", "Profile Build"})
@Description("A profile built from a raw recording: unwound, stitched, symbolized, blamed and written")
@StackTrace(false)
final class ProfileBuildEvent extends jdk.jfr.Event {
    private static final ProfileBuildEvent PROBE = new ProfileBuildEvent();

    @Label("Recording")
    String source;

    @Label("Profile")
    @Description(
            "The file written; empty when the profile was built in memory (export, report, view of a raw recording)")
    String output;

    @Label("Samples")
    long samples;

    @Label("Contexts")
    @Description("Nodes of the calling-context tree")
    long contexts;

    @Label("Bytes Written")
    @DataAmount
    long bytes;

    static boolean on() {
        return PROBE.isEnabled();
    }
}
