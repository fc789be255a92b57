package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.posix.Posix;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.ring.Region;

/** The launcher around programs without OpenMP: statuses, messages, files left behind. */
class RecorderTest {

    @TempDir
    Path dir;

    Path agent;
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void fakeAgent() throws IOException {
        agent = Files.writeString(dir.resolve("libompprof.so"), ""); // never loaded: nothing here uses OpenMP
    }

    int record(String... args) throws Exception {
        Recorder.Context ctx = new Recorder.Context(
                dir,
                System.getenv(),
                k -> k.equals("ompprof.agent") ? agent.toString() : null,
                "test",
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                Region.DEFAULT_DIR);
        return new Recorder(ctx).record(RecordOptions.parse(List.of(args)));
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void statusPassesThroughAndARecordingIsWrittenAnyway() throws Exception {
        assertEquals(7, record("--", "/bin/sh", "-c", "exit 7"));
        assertTrue(err().contains("ompprof: " + Recorder.NO_OMPT), err());
        assertTrue(err().contains("ompprof: recorded 0 threads, 0 samples (0 dropped) in "), err());
        assertTrue(err().contains(" -> sh.ompprof ("), err());
        try (Recording r = Recording.open(dir.resolve("sh.ompprof"))) {
            Metadata m = r.metadata();
            assertEquals("7", m.get(Metadata.EXIT_STATUS, ""));
            assertFalse(m.flag(Metadata.OMPT_CONNECTED));
            assertEquals("/bin/sh -c 'exit 7'", m.get(Metadata.COMMAND, ""));
            assertEquals(dir.toString(), m.get(Metadata.CWD, ""));
            assertEquals(0, r.records().count());
        }
        assertNothingLeftBehind("libompprof.so", "sh.ompprof");
    }

    @Test
    void aSignalledProgramGives128PlusTheSignal() throws Exception {
        assertEquals(128 + 15, record("-o", "killed.ompprof", "/bin/sh", "-c", "kill -TERM $$"));
        assertTrue(Files.exists(dir.resolve("killed.ompprof")));
        assertNothingLeftBehind("killed.ompprof", "libompprof.so");
    }

    @Test
    void theEnvironmentNamesTheAgentAndTheRegion() throws Exception {
        Path env = dir.resolve("env.txt");
        assertEquals(0, record("/bin/sh", "-c", "env > " + env));
        String text = Files.readString(env);
        assertTrue(text.contains("OMP_TOOL_LIBRARIES=" + agent + "\n"), text);
        // OMP_TOOL unset means enabled: it is set only over a value the program was given
        if (System.getenv("OMP_TOOL") == null) assertFalse(text.lines().anyMatch(l -> l.startsWith("OMP_TOOL=")), text);
        else assertTrue(text.contains("OMP_TOOL=enabled\n"), text);
        assertTrue(
                text.matches("(?s).*OMPPROF_SHM=/dev/shm/ompprof-"
                        + ProcessHandle.current().pid() + "-[0-9a-f]{16}\n.*"),
                text);
    }

    @Test
    void checksComeBeforeAnythingIsCreated() throws Exception {
        Files.writeString(dir.resolve("old.ompprof"), "previous");
        UserError e = assertThrows(UserError.class, () -> record("-o", "old.ompprof", "./nonexistent"));
        assertEquals("program not found: ./nonexistent", e.getMessage());
        agent = dir.resolve("missing-agent.so");
        e = assertThrows(UserError.class, () -> record("-o", "old.ompprof", "/bin/true"));
        assertEquals("agent not built: " + agent + "; run make", e.getMessage());
        assertEquals("previous", Files.readString(dir.resolve("old.ompprof")));
        assertNothingLeftBehind("libompprof.so", "old.ompprof");
    }

    private void assertNothingLeftBehind(String... expected) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(
                    Stream.of(expected).sorted().toList(),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        String mine = "ompprof-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> shm = Files.list(Region.DEFAULT_DIR)) {
            assertTrue(shm.noneMatch(p -> p.getFileName().toString().startsWith(mine)), "region unlinked");
        }
    }

    /** The launcher tells whether stderr is a terminal; without it, libc is asked (not a terminal under the tests). */
    @Test
    void stderrIsATerminalAsTheLauncherSays() {
        String key = "ompprof.stderr.terminal", before = System.getProperty(key);
        try {
            System.setProperty(key, "true");
            assertTrue(Recorder.Context.stderrIsTerminal());
            System.setProperty(key, "false");
            assertFalse(Recorder.Context.stderrIsTerminal());
            System.clearProperty(key);
            assertEquals(Posix.isatty(2), Recorder.Context.stderrIsTerminal());
        } finally {
            if (before == null) System.clearProperty(key);
            else System.setProperty(key, before);
        }
    }
}
