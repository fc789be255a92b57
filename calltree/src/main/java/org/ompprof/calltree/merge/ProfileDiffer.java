package org.ompprof.calltree.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ompprof.calltree.build.ReadOrBuild;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.calltree.profile.ProfileWriter;
import org.ompprof.calltree.profile.RunTables;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;

/**
 * Writes the differential profile of a base profile A and a new one B ({@code ompprof diff}):
 * a profile of B (its timelines, tables, device activities and run) whose tree also holds A's values under
 * {@code a.*} and B minus A under {@code delta.*} ({@link ProfileDiff}). A's metadata is kept
 * under {@code diff.base.*}.
 */
public final class ProfileDiffer {
    public static final String BASE_METADATA = "diff.base.";
    public static final String BASE_FILE = "diff.base_file";

    public record Result(long bytes, int contexts) {}

    private ProfileDiffer() {}

    public static Result diff(Path base, Path now, Path output) throws IOException {
        try (Recording ra = Recording.open(base);
                Recording rb = Recording.open(now);
                RecordingWriter w = RecordingWriter.create(output)) {
            Profile a = ReadOrBuild.withoutTimelines(ra);
            Profile b = ReadOrBuild.withoutTimelines(rb);
            ProfileDiff.Result d = ProfileDiff.of(a.tree(), b.tree());
            InputMapping mapping = new InputMapping(0, d.nodeMapOfB());
            long[] samples = {0};
            try {
                for (Timeline t : b.timelines()) samples[0] += copy(w, mapping.remap(t));
                if (rb.isProfile())
                    ProfileReader.forEachTimelineRun(rb, b.tree().size(), t -> samples[0] += copy(w, mapping.remap(t)));
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            Profile out = new Profile(
                    d.tree(),
                    List.of(),
                    b.counters(),
                    b.blame(),
                    b.regions().remapped(d.nodeMapOfB(), 0),
                    b.mutexes().remapped(d.nodeMapOfB()),
                    b.lines().remapped(d.nodeMapOfB()),
                    samples[0],
                    b.devices().remapped(d.nodeMapOfB(), 0, 0));
            Map<String, String> metadata = new LinkedHashMap<>(rb.metadata().entries());
            metadata.put(BASE_FILE, base.toString());
            ra.metadata().entries().forEach((k, v) -> metadata.put(BASE_METADATA + k, v));
            RunTables run = RunTables.of(rb);
            ProfileWriter.tables(
                    w, new RunTables(new Metadata(metadata), run.threads(), run.modules(), run.stats()), out);
            return new Result(w.commit(), d.tree().size() - 1);
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
