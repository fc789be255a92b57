package org.ompprof.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ompprof.sampler.UserError;

/**
 * {@code ompprof demo}: builds the bundled OpenMP example with clang-19, records it and shows
 * what the recording holds, in a directory {@code ompprof-demo/} under the current one.
 */
final class DemoCommand {
    private static final String SOURCE = "imbalance.c";

    private DemoCommand() {}

    static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.contains("--help")) {
            out.println("usage: ompprof demo [DIR]   (default DIR: ./ompprof-demo)");
            return 0;
        }
        Path dir = Path.of(args.isEmpty() ? "ompprof-demo" : args.getFirst()).toAbsolutePath();
        Files.createDirectories(dir);
        Path source = extractSource(dir);
        Path program = dir.resolve("imbalance");
        compile(source, program, err);
        Path recording = dir.resolve("imbalance.ompprof");
        out.println("ompprof demo: recording " + program + " (an imbalanced loop and a critical section)");
        int status = RecordCommand.run(List.of("-o", recording.toString(), "--", program.toString()), out, err);
        if (status != 0) return status;
        out.println();
        int report = ReportCommand.run(List.of("--top", "5", recording.toString()), out, err);
        if (report != 0) return report;
        Path flame = dir.resolve("imbalance.html");
        ExportCommand.run(List.of("--format", "html", "-o", flame.toString(), recording.toString()), out, err);
        out.println();
        out.println("flame graph: " + flame + " (open it in a browser)");
        out.println("more: ompprof info " + recording + "; ompprof export --format collapsed --metric barrier_blame "
                + recording);
        return 0;
    }

    private static Path extractSource(Path dir) throws IOException {
        Path source = dir.resolve(SOURCE);
        try (InputStream in = DemoCommand.class.getResourceAsStream("demo/" + SOURCE)) {
            if (in == null) throw new IllegalStateException("demo source missing from the build");
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        }
        return source;
    }

    private static void compile(Path source, Path program, PrintStream err) throws Exception {
        List<String> cmd = List.of("clang-19", "-fopenmp", "-g", "-O1", "-o", program.toString(), source.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw new UserError("clang-19 not found; install it with: sudo apt-get install clang-19 libomp-19-dev");
        }
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new UserError("compiling the demo failed: " + String.join(" ", cmd));
        }
    }
}
