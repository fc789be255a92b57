package org.ompprof.ui.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import org.ompprof.calltree.merge.InputMapping;
import org.ompprof.calltree.merge.ProfileMerger;
import org.ompprof.calltree.merge.ProfileParts;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.unwinder.stitch.StitchCounters;

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
        ProfileMerger merger = new ProfileMerger();
        RunTablesMerger tables = new RunTablesMerger();
        long samples = 0;
        try (RecordingWriter w = RecordingWriter.create(output)) {
            for (Path input : inputs) samples += add(input, merger, tables, w);
            ProfileParts out = merger.result();
            Profile merged = new Profile(out.tree(), List.of(), StitchCounters.fromMap(out.stitch()), out.blame(), out.regions(),
                    out.mutexes(), out.lines(), samples);
            RunTables run = tables.result(out.metadata(), out.threadSpan());
            ProfileWriter.tables(w, run, merged);
            return new Result(w.commit(), inputs.size(), samples, out.tree().size() - 1, run.threads().size());
        }
    }

    /** Adds one input; returns the samples of its timelines. */
    private static long add(Path input, ProfileMerger merger, RunTablesMerger tables, RecordingWriter w) throws IOException {
        try (Recording r = Recording.open(input)) {
            Profile p = ProfileReader.withoutTimelines(r);
            RunTables run = RunTables.of(r);
            InputMapping mapping;
            try {
                mapping = merger.add(new ProfileParts(p.tree(), p.regions(), p.mutexes(), p.lines(), p.counters().asMap(), p.blame(),
                        run.metadata().entries(), run.threadSpan(p.tree(), p.timelines())), input.toString());
            } catch (IllegalArgumentException e) {
                throw new UserError("cannot merge " + input + ": " + e.getMessage());
            }
            tables.add(run, mapping.threadOffset());
            long[] samples = {0};
            for (Timeline t : p.timelines()) samples[0] += copy(w, mapping.remap(t));
            if (r.isProfile()) {
                try {
                    ProfileReader.forEachTimelineRun(r, p.tree().size(), t -> samples[0] += copy(w, mapping.remap(t)));
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }
            return samples[0];
        }
    }

    private static long copy(RecordingWriter w, Timeline t) {
        try {
            ProfileWriter.timeline(w, t);
            return t.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
