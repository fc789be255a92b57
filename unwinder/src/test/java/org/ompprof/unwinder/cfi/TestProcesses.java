package org.ompprof.unwinder.cfi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Running the tools tests compare against (compilers, llvm-dwarfdump). */
public final class TestProcesses {
    private TestProcesses() {}

    public static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    /** Runs {@code cmd}, returns its stdout and stderr; fails unless it exits with 0 within a minute. */
    public static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        // Read before waiting: a large output would otherwise fill the pipe and stall the tool.
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + cmd);
        }
        if (p.exitValue() != 0) throw new IOException(cmd + " exited with " + p.exitValue() + ":\n" + output);
        return output;
    }
}
