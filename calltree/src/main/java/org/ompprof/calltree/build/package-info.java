/**
 * Builds a profile from a raw recording: the stages the samples go through after the sampler
 * (ring records), the unwinder (stitched, symbolized call paths) and blame (who made threads
 * wait), ending in a {@link org.ompprof.calltree.profile.Profile}.
 *
 * <p>{@link org.ompprof.calltree.build.ProfileBuilder} wires them: samples in time order, all
 * threads merged, each named ({@link org.ompprof.calltree.build.FrameNames}, with
 * {@link org.ompprof.calltree.build.DisplayNames} and the demangler), corrected for its OpenMP
 * state ({@link org.ompprof.calltree.build.WaitStates}), added to the tree and its thread's
 * timeline, to the blame window ({@link org.ompprof.calltree.build.BlameStage}) and the
 * per-region sums ({@link org.ompprof.calltree.build.RegionStage}); device activity last
 * ({@link org.ompprof.calltree.build.DeviceStage}). {@code record} builds straight into the
 * profile file ({@link org.ompprof.calltree.build.ProfileBuilder#buildInto}); the commands that
 * take a file that may be a raw recording go through {@link org.ompprof.calltree.build.ReadOrBuild}.
 * With JFR on ({@code --self-profile}), the build's cost per stage becomes events and metadata
 * ({@link org.ompprof.calltree.build.BuildCost}).
 *
 * <p>A build uses one thread per core unless {@code -Dompprof.build.threads=N} says otherwise
 * ({@link org.ompprof.calltree.build.BuildThreads}): the recording's sections are decoded and
 * their samples stitched ahead on the others, merged in time order and their names asked of
 * llvm-symbolizer ahead on one ({@link org.ompprof.calltree.build.SamplesAhead}), while this
 * thread aggregates them in order: the profile is the same, byte for byte, for any count.
 */
package org.ompprof.calltree.build;
