package org.ompprof.sampler.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM stopped by SIGTERM while it writes a recording (a rank's {@code ompprof record} building its profile when a
 * batch system or MPI launcher stops the job) leaves no temporary file next to the output. (One killed outright still
 * does: NPB-MZ's rank 1, whose launcher sent SIGTERM while the program ran and SIGKILL during the build, left {@code
 * bt.rank-1.ompprof.tmp-da8ce562}.) The writer runs in a JVM of its own, which the test stops.
 */
class RecordingWriterExitTest {
    @TempDir
    Path dir;

    /** Starts a recording in {@code args[0]}, says so, and waits to be stopped. */
    public static final class Writing {
        public static void main(String[] args) throws Exception {
            RecordingWriter w = RecordingWriter.create(Path.of(args[0]));
            w.metadata(new Metadata(Map.of("command", "test")));
            System.out.println("writing");
            System.out.flush();
            Thread.sleep(60_000);
            w.commit();
        }
    }

    @Test
    void aJvmStoppedWhileWritingLeavesNoTemporaryFile() throws Exception {
        Path output = dir.resolve("p.ompprof");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Writing.class.getName(),
                        output.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("writing", r.readLine());
            assertEquals(1, temporaryFiles().size(), "the recording is being written");
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(List.of(), temporaryFiles(), "nothing left next to the output");
    }

    private List<Path> temporaryFiles() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().contains(".tmp-")).toList();
        }
    }
}
