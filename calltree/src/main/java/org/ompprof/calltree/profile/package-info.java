/**
 * The profile: one model ({@link org.ompprof.calltree.profile.Profile}: the tree, each thread's
 * timeline, the region, mutex, line and device tables, stitch and blame counters) and its file.
 *
 * <p>A profile file is a recording container (the sampler's {@code recording} package: header,
 * checksummed sections found by kind) holding the raw recording's run tables
 * ({@link org.ompprof.calltree.profile.RunTables}) and the profile's sections, each with its
 * codec here. {@link org.ompprof.calltree.profile.ProfileWriter} writes them,
 * {@link org.ompprof.calltree.profile.TimelineStream} writes timelines as they grow, and
 * {@link org.ompprof.calltree.profile.ProfileReader} reads profiles (a raw recording is refused:
 * building is the build package's). A section that does not decode throws the container's
 * {@link org.ompprof.sampler.recording.BadSectionException}, which the container turns into one
 * line naming the file offset.
 */
package org.ompprof.calltree.profile;
