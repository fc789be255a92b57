package org.ompprof.ui;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code -o -}: standard output instead of a file, for the commands whose output streams
 * (export, merge, diff, view --screenshot). A profile is written whole to a private temporary
 * file first (its writer commits by renaming) and then copied out.
 */
final class StandardOutput {
    static final String NAME = "-";

    /** Writes a file to a path it is given. */
    interface FileWriter<R> {
        R write(Path output) throws IOException;
    }

    private StandardOutput() {}

    static boolean means(Path output) {
        return output != null && output.toString().equals(NAME);
    }

    /** Runs {@code writer} on a temporary file, copies what it wrote to {@code out}, and deletes it. */
    static <R> R through(FileWriter<R> writer, OutputStream out) throws IOException {
        Path dir = Files.createTempDirectory("ompprof-out-");
        Path file = dir.resolve("out.ompprof");
        try {
            R r = writer.write(file);
            Files.copy(file, out);
            out.flush();
            return r;
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
