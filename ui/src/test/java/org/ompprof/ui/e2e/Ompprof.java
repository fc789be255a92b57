package org.ompprof.ui.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.ompprof.ui.Main;

/**
 * Runs the real {@code ompprof} command line in its own JVM, as a user would, with this
 * test's class path; or, to read a recorded profile back, the same commands in this JVM.
 */
public final class Ompprof {
    private Ompprof() {}

    /** What one run printed and returned. */
    public record Result(int status, String out, String err) {}

    /** Starts ompprof with ARGS and extra environment; output goes to files in {@code work}. */
    static Process start(Path work, Map<String, String> env, List<String> args) throws IOException {
        return start(work, env, List.of(), args);
    }

    /** Starts {@code launcher} (e.g. mpirun and its options, a shell) followed by the ompprof command line. */
    static Process start(Path work, Map<String, String> env, List<String> launcher, List<String> args)
            throws IOException {
        List<String> cmd = new ArrayList<>(launcher);
        cmd.addAll(commandLine(args));
        Files.createDirectories(work);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(work.toFile())
                .redirectOutput(work.resolve("stdout.txt").toFile())
                .redirectError(work.resolve("stderr.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        env.forEach((k, v) -> {
            if (v == null) pb.environment().remove(k); // a null value unsets the variable
            else pb.environment().put(k, v);
        });
        return pb.start();
    }

    /** The command that runs ompprof with ARGS in a JVM of its own. */
    static List<String> commandLine(List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (!args.isEmpty() && args.getFirst().equals("record"))
            cmd.add("-XX:TieredStopAtLevel=1"); // as ./ompprof does
        cmd.addAll(List.of(
                "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dompprof.root=" + System.getProperty("ompprof.root"),
                "-Dompprof.agent=" + System.getProperty("ompprof.agent"),
                "org.ompprof.ui.Main"));
        cmd.addAll(args);
        return cmd;
    }

    /** Runs ompprof to completion (at most two minutes). */
    public static Result run(Path work, Map<String, String> env, String... args) throws Exception {
        return runWrapped(work, env, List.of(), args);
    }

    private static final Set<String> READING = Set.of("info", "export", "report");

    /**
     * Runs a command that reads profiles ({@code info}, {@code export}, {@code report}) in this JVM, through the
     * command line's own entry point: what it prints and returns are the command line's, without a JVM's start for
     * each of the suite's hundreds of read-backs. File arguments must be absolute (this JVM's directory is not the
     * test's). The tests of the commands themselves run them through {@link #run}.
     */
    public static Result read(String... args) {
        if (args.length == 0 || !READING.contains(args[0]))
            throw new IllegalArgumentException("not a command that reads profiles: " + List.of(args));
        for (String a : args)
            if (a.contains(".ompprof") && !Path.of(a).isAbsolute())
                throw new IllegalArgumentException("a relative path, read from this JVM's directory: " + a);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(List.of(args), o, e);
        }
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Records {@code command} on {@code threads} OpenMP threads into {@code profile} (at most two minutes). */
    public static Result record(Path work, int threads, Path profile, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("record", "-o", profile.toString(), "--"));
        args.addAll(List.of(command));
        return run(work, Map.of("OMP_NUM_THREADS", Integer.toString(threads)), args.toArray(String[]::new));
    }

    /** Runs {@code wrapper} followed by the ompprof command line to completion (at most two minutes). */
    public static Result runWrapped(Path work, Map<String, String> env, List<String> wrapper, String... args)
            throws Exception {
        Process p = start(work, env, wrapper, List.of(args));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("ompprof did not finish: " + List.of(args));
        }
        return result(work, p.exitValue());
    }

    static Result result(Path work, int status) throws IOException {
        // decoded leniently: -o - puts profiles and images on standard output
        return new Result(
                status,
                new String(Files.readAllBytes(work.resolve("stdout.txt")), java.nio.charset.StandardCharsets.UTF_8),
                new String(Files.readAllBytes(work.resolve("stderr.txt")), java.nio.charset.StandardCharsets.UTF_8));
    }
}
