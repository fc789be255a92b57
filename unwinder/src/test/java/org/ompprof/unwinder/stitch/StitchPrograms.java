package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.ompprof.sampler.launch.RecordOptions;
import org.ompprof.sampler.launch.Recorder;
import org.ompprof.sampler.ring.Region;

/**
 * The known-answer programs of {@code src/test/c/stitch}: compiled with clang-19 -fopenmp -g
 * -O1 and recorded for real (the recorder in this JVM, the real agent and libomp), each once
 * per JVM. Skipped, not failed, where the agent or the compiler is missing.
 */
final class StitchPrograms {
    static final Path AGENT = Path.of(System.getProperty("ompprof.agent", "../native-sigprof/target/libompprof.so"))
            .toAbsolutePath();
    static final Path CLANG = Path.of("/usr/bin/clang-19");
    private static final Path SOURCES = Path.of("src", "test", "c", "stitch").toAbsolutePath();
    private static final Path OUT = Path.of("target", "stitch").toAbsolutePath();
    private static final Map<String, Path> RECORDINGS = new ConcurrentHashMap<>();

    private StitchPrograms() {}

    /** The recording of {@code program} (a file name in src/test/c/stitch, without .c), made on first use. */
    static Path recording(String program, Map<String, String> env) {
        return recording(program, env, List.of());
    }

    /** As {@link #recording(String, Map)}, with record options before the program ({@code --stack-bytes N}). */
    static Path recording(String program, Map<String, String> env, List<String> options) {
        assumeTrue(Files.isRegularFile(AGENT), "agent not built (make -C native-sigprof): " + AGENT);
        assumeTrue(Files.isExecutable(CLANG), "no clang-19");
        return RECORDINGS.computeIfAbsent(program + env + options, k -> {
            try {
                return record(compile(program), env, options);
            } catch (Exception e) {
                throw new AssertionError("cannot record " + program, e);
            }
        });
    }

    private static Path compile(String program) throws Exception {
        Files.createDirectories(OUT);
        Path binary = OUT.resolve(program);
        run(List.of(
                CLANG.toString(),
                "-fopenmp",
                "-g",
                "-O1",
                "-Wall",
                "-o",
                binary.toString(),
                SOURCES.resolve(program + ".c").toString()));
        return binary;
    }

    private static Path record(Path binary, Map<String, String> extraEnv, List<String> options) throws Exception {
        Path output = OUT.resolve(binary.getFileName() + "-" + Integer.toHexString(extraEnv.hashCode())
                + Integer.toHexString(options.hashCode()) + ".ompprof");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("OMP_NUM_THREADS", "2");
        env.putAll(extraEnv);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Recorder.Context ctx = new Recorder.Context(
                OUT,
                env,
                k -> k.equals("ompprof.agent") ? AGENT.toString() : null,
                "test",
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                Region.DEFAULT_DIR);
        int status = new Recorder(ctx).record(RecordOptions.parse(args(output, options, binary)));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return output;
    }

    private static List<String> args(Path output, List<String> options, Path binary) {
        List<String> args = new ArrayList<>(List.of("-o", output.toString()));
        args.addAll(options);
        args.add("--");
        args.add(binary.toString());
        return args;
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command) + "\n" + log);
    }

    /** Environment entries as a map, for {@link #recording}. */
    static Map<String, String> env(String... keysAndValues) {
        Map<String, String> m = new HashMap<>();
        List<String> kv = new ArrayList<>(List.of(keysAndValues));
        for (int i = 0; i + 1 < kv.size(); i += 2) m.put(kv.get(i), kv.get(i + 1));
        return Map.copyOf(m);
    }
}
