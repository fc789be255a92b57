package org.ompprof.calltree.profile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.HandlerHistogram;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.RecordingWriter;
import org.ompprof.sampler.recording.Stats;

/** The reader decodes profiles only: a raw recording is refused in one line, never built behind the caller's back. */
class ProfileReaderTest {
    @Test
    void aRawRecordingIsRefusedInOneLineNamingTheFile(@TempDir Path dir) throws IOException {
        Path raw = dir.resolve("run.ompprof.raw");
        try (RecordingWriter w = RecordingWriter.create(raw)) {
            w.metadata(new Metadata(Map.of(Metadata.MODE, "wall")));
            w.threads(List.of());
            w.modules(List.of());
            w.stats(new Stats(HandlerHistogram.empty(), 0, 0, 0, 1, 0, 0, List.of(), List.of(), List.of()));
            w.commit();
        }
        try (Recording r = Recording.open(raw)) {
            assertFalse(r.isProfile());
            for (var read : List.<Runnable>of(() -> ProfileReader.read(r), () -> ProfileReader.withoutTimelines(r))) {
                UserError e = assertThrows(UserError.class, read::run);
                assertTrue(
                        e.getMessage().startsWith(raw.toString())
                                && e.getMessage().contains("raw recording"),
                        e.getMessage());
                assertFalse(e.getMessage().contains("\n"), "one line");
            }
        }
    }
}
