package org.ompprof.calltree.build;

import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.recording.Recording;

/**
 * The profile of a file a user names, which may be a profile or a raw recording (made with
 * {@code record --keep-raw}, or left in the profile's place when building it failed): a profile
 * is decoded; a raw recording's profile is built from its samples, which runs the whole pipeline
 * (unwind, stitch, symbolize, blame, aggregate) and takes as long as {@code record}'s last step.
 * The commands that accept both ({@code info}, {@code report}, {@code export}, {@code view},
 * {@code merge}, {@code diff}) come here; {@link ProfileReader} reads profiles only.
 */
public final class ReadOrBuild {
    private ReadOrBuild() {}

    /** The file's profile with its timelines. */
    public static Profile profile(Recording file) {
        return file.isProfile() ? ProfileReader.read(file) : ProfileBuilder.build(file);
    }

    /**
     * The file's profile without the timelines of a profile file (read them with {@link
     * ProfileReader#timelines} or {@link ProfileReader#forEachTimelineRun}); a raw recording's
     * profile is built whole, timelines included.
     */
    public static Profile withoutTimelines(Recording file) {
        return file.isProfile() ? ProfileReader.withoutTimelines(file) : ProfileBuilder.build(file);
    }
}
