package org.ompprof.calltree.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.ompprof.calltree.build.ReadOrBuild;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.RunTables;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.calltree.profile.TimelineStream;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;

/**
 * Merges profile files into one ({@code ompprof merge}), one input at a time: an input's tree
 * and tables are added to the output's, then its timelines are copied across run by run,
 * renumbered, straight into the output file. Memory is thus the output's tree and tables plus
 * one input's, never all the timelines. A raw recording among the inputs is built into a
 * profile first (whole, as {@code info} would).
 */
public final class ProfileMerge {
    /** @param bytes size of the file written; samples, the timelines' samples in it */
    public record Result(long bytes, int inputs, long samples, int contexts, int threads) {}

    private ProfileMerge() {}

    public static Result merge(List<Path> inputs, Path output) throws IOException {
        return merge(inputs, output, 0);
    }

    /**
     * As {@link #merge(List, Path)}, the output's timelines downsampled to one entry per thread per {@code
     * timelineResolutionNs} (0: not).
     */
    public static Result merge(List<Path> inputs, Path output, long timelineResolutionNs) throws IOException {
        ProfileMerger merger = new ProfileMerger();
        RunTablesMerger tables = new RunTablesMerger();
        long samples = 0;
        try (RecordingWriter w = RecordingWriter.create(output)) {
            TimelineStream coarse = timelineResolutionNs == 0
                    ? null
                    : TimelineStream.to(w, TimelineStream.DEFAULT_BUDGET).downsampled(timelineResolutionNs);
            Consumer<Timeline> sink = coarse == null
                    ? t -> copy(w, t)
                    : t -> {
                        for (int i = 0; i < t.size(); i++)
                            coarse.add(t.thread(), t.timeNs(i), t.node(i), t.state(i), t.weightNs(i));
                    };
            for (Path input : inputs) samples += add(input, merger, tables, sink);
            if (coarse != null) coarse.finish();
            Profile merged = merger.result();
            RunTables run = tables.result(merger.metadata(), merger.threadSpan());
            if (timelineResolutionNs != 0)
                run = run.withMetadata(
                        run.metadata().with(Metadata.TIMELINE_RESOLUTION_NS, Long.toString(timelineResolutionNs)));
            ProfileWriter.tables(w, run, merged);
            return new Result(
                    w.commit(),
                    inputs.size(),
                    samples,
                    merged.tree().size() - 1,
                    run.threads().size());
        }
    }

    /** Adds one input, its timelines (remapped) to {@code timelines}; returns the samples of its timelines. */
    private static long add(Path input, ProfileMerger merger, RunTablesMerger tables, Consumer<Timeline> timelines)
            throws IOException {
        try (Recording r = Recording.open(input)) {
            Profile p = ReadOrBuild.withoutTimelines(r);
            RunTables run = RunTables.of(r);
            InputMapping mapping;
            try {
                mapping = merger.add(
                        p, run.metadata().entries(), run.threadSpan(p.tree(), p.timelines()), input.toString());
            } catch (IllegalArgumentException e) {
                throw new UserError("cannot merge " + input + ": " + e.getMessage());
            }
            tables.add(run, mapping.threadOffset());
            long[] samples = {0};
            Consumer<Timeline> counted = t -> {
                samples[0] += t.size();
                timelines.accept(t);
            };
            p.timelines().forEach(t -> counted.accept(mapping.remap(t))); // the merger has these already
            if (r.isProfile()) {
                try {
                    ProfileReader.forEachTimelineRun(r, p.tree().size(), t -> {
                        Timeline remapped = mapping.remap(t);
                        merger.timeline(remapped);
                        counted.accept(remapped);
                    });
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }
            return samples[0];
        }
    }

    private static void copy(RecordingWriter w, Timeline t) {
        try {
            ProfileWriter.timeline(w, t);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
