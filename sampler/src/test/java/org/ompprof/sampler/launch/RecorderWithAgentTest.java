package org.ompprof.sampler.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ompprof.sampler.record.SampleRecord;
import org.ompprof.sampler.record.ThreadBegin;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.sampler.recording.ThreadInfo;
import org.ompprof.sampler.ring.Region;
import org.ompprof.sampler.wire.Wire;

/**
 * The recorder with the real agent on a real OpenMP program (skipped until the agent is
 * built). The full command-line end-to-end tests live in the ui module.
 */
class RecorderWithAgentTest {
    static final Path AGENT = Path.of(System.getProperty("ompprof.agent", "../native-sigprof/target/libompprof.so"))
            .toAbsolutePath();
    static final Path BIN = Path.of("target", "c-bin").toAbsolutePath();
    static Path program;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() throws Exception {
        assumeTrue(Files.isRegularFile(AGENT), "agent not built: " + AGENT);
        Files.createDirectories(BIN);
        program = BIN.resolve("selfdelete");
        Path source = Path.of("src", "test", "c", "selfdelete.c").toAbsolutePath();
        Process p = new ProcessBuilder(
                        "/usr/bin/clang-19", "-fopenmp", "-g", "-O1", "-o", program.toString(), source.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, log);
    }

    int record(Path cwd, ByteArrayOutputStream err, String... args) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("OMP_NUM_THREADS", "2");
        Recorder.Context ctx = new Recorder.Context(
                cwd,
                env,
                k -> k.equals("ompprof.agent") ? AGENT.toString() : null,
                "test",
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                Region.DEFAULT_DIR);
        return new Recorder(ctx).record(RecordOptions.parse(List.of(args)));
    }

    @Test
    void recordsThreadsSamplesAndModules() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(5, record(dir, err, "-o", "run.ompprof", "--rate", "500", "--", program.toString()));
        String messages = err.toString(StandardCharsets.UTF_8);
        assertFalse(messages.contains("no OpenMP runtime"), messages);
        try (Recording r = Recording.open(dir.resolve("run.ompprof"))) {
            assertTrue(r.metadata().flag(Metadata.OMPT_CONNECTED));
            assertTrue(
                    r.metadata().get(Metadata.RUNTIME_VERSION, "").contains("LLVM"),
                    r.metadata().toString());
            List<ThreadInfo> threads = r.threads();
            assertTrue(threads.size() >= 2, threads.toString());
            long samples = threads.stream().mapToLong(ThreadInfo::samples).sum();
            assertTrue(samples > 100, "samples: " + samples);
            assertEquals(
                    samples, r.records().filter(x -> x instanceof SampleRecord).count());
            assertTrue(r.records().anyMatch(x -> x instanceof ThreadBegin));
            assertEquals(0, r.stats().malformed(), r.stats().malformedExamples().toString());
            ModuleInfo main = r.modules().stream()
                    .filter(m -> m.has(Wire.MOD_MAIN))
                    .findFirst()
                    .orElseThrow();
            assertEquals(ImageSource.EMBEDDED, main.image());
            assertArrayEquals(
                    Files.readAllBytes(program), r.moduleImage(main.moduleId()).orElseThrow());
            assertTrue(r.modules().stream().anyMatch(m -> m.has(Wire.MOD_VDSO) && m.image() == ImageSource.EMBEDDED));
            assertEquals(List.of(), r.stats().modulesNotCaptured());
        }
    }

    @Test
    void aProgramThatDeletesItselfIsStillCaptured() throws Exception {
        Path copy = dir.resolve("doomed");
        Files.copy(program, copy);
        byte[] image = Files.readAllBytes(copy);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(5, record(dir, err, "-o", "doomed.ompprof", "./doomed", "unlink"));
        assertFalse(Files.exists(copy));
        try (Recording r = Recording.open(dir.resolve("doomed.ompprof"))) {
            ModuleInfo main = r.modules().stream()
                    .filter(m -> m.has(Wire.MOD_MAIN))
                    .findFirst()
                    .orElseThrow();
            assertEquals(ImageSource.EMBEDDED, main.image(), main.note());
            assertArrayEquals(image, r.moduleImage(main.moduleId()).orElseThrow());
        }
    }
}
